/* Runs one command and writes its wall-clock seconds, peak RSS in bytes, exit status
 * (negative: the signal that ended it) and CPU seconds (user + system) to OUT:
 *
 *     spawn OUT TIMEOUT_SECONDS COMMAND [ARG...]
 *
 * Why not wait4 from the Python script: on exec the kernel starts the new program's
 * high-water RSS at the old address space's, so a child of a process that once held
 * 300 MB reports at least 300 MB (and a child of any Python at least ~13 MB). Forked
 * from this program, a child's peak is its own. A child that runs past TIMEOUT is killed.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t child;

static void on_alarm(int signal) {
    (void)signal;
    kill(child, SIGKILL);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: spawn OUT TIMEOUT COMMAND [ARG...]\n");
        return 2;
    }
    struct timespec start, end;
    struct rusage usage;
    int status;
    clock_gettime(CLOCK_MONOTONIC, &start);
    child = fork();
    if (child == 0) {
        execvp(argv[3], argv + 3);
        perror(argv[3]);
        _exit(127);
    }
    signal(SIGALRM, on_alarm);
    alarm((unsigned)atoi(argv[2]));
    while (wait4(child, &status, 0, &usage) < 0) {}   /* EINTR from the alarm */
    clock_gettime(CLOCK_MONOTONIC, &end);
    FILE *out = fopen(argv[1], "w");
    if (!out) return 2;
    double cpu = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
                 + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    fprintf(out, "%.9f %ld %d %.6f\n", (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9,
            usage.ru_maxrss * 1024L, WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status), cpu);
    fclose(out);
    return 0;
}

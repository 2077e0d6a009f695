/* The reference for YAML speed: parse a file into libyaml events and do nothing else. */
#include <stdio.h>
#include <yaml.h>

int main(int argc, char **argv) {
    FILE *file = fopen(argv[1], "rb");
    yaml_parser_t parser;
    yaml_event_t event;
    long events = 0;
    if (!file || !yaml_parser_initialize(&parser)) return 2;
    yaml_parser_set_input_file(&parser, file);
    do {
        if (!yaml_parser_parse(&parser, &event)) return 1;
        events++;
        if (event.type == YAML_STREAM_END_EVENT) break;
        yaml_event_delete(&event);
    } while (1);
    yaml_event_delete(&event);
    yaml_parser_delete(&parser);
    fclose(file);
    fprintf(stderr, "%ld events\n", events);
    return 0;
}

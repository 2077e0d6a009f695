import Foundation
import Testing

@testable import todofmt

/// Every help text, exactly, by subcommand ("" for todofmt's own). Change these only on purpose:
/// the man page and the shell completions are made from the same specs.
let goldenHelp: [(command: String, text: String)] = [
    (
        "",
        """
        OVERVIEW: Read, write and convert todo lists kept as Markdown checklists.

        Options may stand before or after the files; after -- every argument is a file.
        A file named - is standard input or output.

        USAGE: todofmt <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          convert                 Convert a todo list from one format to another.
          fmt                     Rewrite checklists in canonical form.
          check                   Validate todo list files and report problems.
          list                    Print the items of a todo list with their positions.
          add                     Add an item to a todo list.
          done                    Check items: mark them done.
          undo                    Uncheck items: mark them open.
          toggle                  Toggle items between done and open.
          rename                  Rename an item.
          rm                      Remove items, with the items nested in them.
          mv                      Move an item, with the items nested in it.
          set                     Set fields of an item.
          unset                   Remove fields of an item.
          cat                     Print a todo list in any format as a Markdown
                                  checklist.
          diff                    Show what changed between two todo lists, item by
                                  item.
          merge                   Merge two versions of a todo list by item: git's merge
                                  driver.
          completions             Print a completion script for bash, zsh or fish.
          help                    Show help for a subcommand.

          See 'todofmt help <subcommand>' for detailed help.

        """
    ),
    (
        "convert",
        """
        OVERVIEW: Convert a todo list from one format to another.

        Writing into an existing JSON or property list file replaces only the list:
        other keys, the file's format and its item keys stay.

        USAGE: todofmt convert [--from <format>] [--to <format>] [--key <key>]
                               [--table <table>] [--entity <name>]
                               [--field <role>=<key> ...] [--strict] <input> [<output>]

        ARGUMENTS:
          <input>                 The file to read, or - for standard input.
          <output>                The file to write, or - for standard output (the
                                  default). It is written to a temporary file and
                                  renamed into place.

        OPTIONS:
          --from <format>         The input's format. Default: from the extension, else
                                  from the content. (values: md, yaml, json, plist,
                                  bplist, sqlite, sql)
          --to <format>           The output's format. Default: an existing output
                                  file's, else the extension's, else md. A new .plist is
                                  XML unless --to bplist. (values: md, yaml, json,
                                  plist, bplist, sqlite, sql)
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          --strict                Fail, writing nothing, when the output cannot hold
                                  everything the input has (what would otherwise be a
                                  warning).
          -h, --help              Show help information.

        """
    ),
    (
        "fmt",
        """
        OVERVIEW: Rewrite checklists in canonical form.

        USAGE: todofmt fmt [--check] <file> ...

        ARGUMENTS:
          <file>                  A Markdown checklist, or - to format standard input to
                                  standard output.

        OPTIONS:
          --check                 Change nothing; print the files that are not in
                                  canonical form and exit 1 if there are any.
          -h, --help              Show help information.

        """
    ),
    (
        "check",
        """
        OVERVIEW: Validate todo list files and report problems.

        Problems are printed as 'file:line:column: severity: message'. The exit status
        is 1 when any file has a problem.

        USAGE: todofmt check [--from <format>] [--key <key>] [--table <table>]
                             [--entity <name>] [--field <role>=<key> ...] <file> ...

        ARGUMENTS:
          <file>                  A todo list in any format todofmt reads, or - for
                                  standard input.

        OPTIONS:
          --from <format>         The files' format. Default: from each extension, else
                                  the content. (values: md, yaml, json, plist, bplist,
                                  sqlite, sql)
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          -h, --help              Show help information.

        """
    ),
    (
        "list",
        """
        OVERVIEW: Print the items of a todo list with their positions.

        Each line is a position (1, 2, 2.1 for the first child of item 2), the checkbox
        and the item's text with its fields, as in a checklist.

        Filters combine: an item is listed when it passes each one given. A listed item
        keeps its position in the file, whatever is left out around it, so it can be
        given to done, mv and the other editing commands.

        USAGE: todofmt list [--from <format>] [--open] [--done] [--status <c> ...]
                            [--section <name>] [--grep <text>]
                            [--field <key>=<value> ...] [--limit <n>] [--offset <n>]
                            [--sort <keys>] [--format <text|json>] [--key <key>]
                            [--table <table>] [--entity <name>] <file>

        ARGUMENTS:
          <file>                  A todo list in any format todofmt reads, or - for
                                  standard input.

        OPTIONS:
          --from <format>         The file's format. Default: from the extension, else
                                  the content. (values: md, yaml, json, plist, bplist,
                                  sqlite, sql)
          --open                  List open items ([ ]).
          --done                  List done items ([x]).
          --status <c>            List items of this status, by its character: x, a
                                  space, / or any other. --open, --done and --status
                                  together list items of any of their statuses. May
                                  repeat.
          --section <name>        List the items of this section (the heading's text
                                  exactly), nested items too.
          --grep <text>           List items whose name contains this text, ignoring
                                  case.
          --field <key>=<value>   List items whose field <key> has this value (written
                                  as set takes it: prio=2, due=2024-06-01T09:00:00Z). A
                                  role name before = (name, checked, status, section,
                                  children, fields, order) instead names the key that
                                  plays the role, as in convert (--field name=ToDo). May
                                  repeat.
          --limit <n>             List at most n items.
          --offset <n>            Skip the first n items the filters and the order give.
          --sort <keys>           Order the items by keys, key[:desc],..., each
                                  ascending unless :desc: a field, or name, checked,
                                  status, position (stuId:desc,name). Items without the
                                  field come last; ties keep document order. Sorted
                                  items are listed flat, each with its own position.
          --format <text|json>    text (the default): a line an item; json: a JSON array
                                  of the items in the plain JSON shape, each with its
                                  position under "at" and without its children.
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          -h, --help              Show help information.

        """
    ),
    (
        "add",
        """
        OVERVIEW: Add an item to a todo list.

        The item is open and takes the style of its neighbours. An item is named by its
        position as list prints it (3, 3.2) or by its exact name; a text of digits and
        dots is always a position.

        USAGE: todofmt add [--under <item>] [--at <position>] [--dry-run] [--strict]
                           [--key <key>] [--table <table>] [--entity <name>]
                           [--field <role>=<key> ...] <file> <name>

        ARGUMENTS:
          <file>                  The todo list to edit, in any format todofmt reads
                                  (md, yaml, json, plist, bplist, sqlite, sql, a Core
                                  Data store). It is written back in place, changing
                                  only the edited items.
          <name>                  The new item's name (taken as it is: brackets stay
                                  text).

        OPTIONS:
          --under <item>          Add the item inside this item (a position or a name),
                                  as its last child unless --at.
          --at <position>         Where the new item goes: the position list then prints
                                  for it (1 is first, 2.1 the first child of item 2);
                                  with --under, the child's number (1 is the first
                                  child). Default: after the last.
          --dry-run               Write nothing; print what would change: a unified diff
                                  for a text file, the rows before (-) and after (+) for
                                  a database, the items as list prints them for a binary
                                  property list.
          --strict                Fail, writing nothing, when the file cannot take the
                                  edit as the app would write it (what would otherwise
                                  be a warning, such as a key todofmt had to choose).
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          -h, --help              Show help information.

        """
    ),
    (
        "done",
        """
        OVERVIEW: Check items: mark them done.

        In a checklist only each item's box changes ([ ] to [x]). An item is named by
        its position as list prints it (3, 3.2) or by its exact name; a text of digits
        and dots is always a position.

        USAGE: todofmt done [--dry-run] [--strict] [--key <key>] [--table <table>]
                            [--entity <name>] [--field <role>=<key> ...] <file>
                            <item> ...

        ARGUMENTS:
          <file>                  The todo list to edit, in any format todofmt reads
                                  (md, yaml, json, plist, bplist, sqlite, sql, a Core
                                  Data store). It is written back in place, changing
                                  only the edited items.
          <item>                  The items: positions as list prints them (3, 3.2), or
                                  exact names.

        OPTIONS:
          --dry-run               Write nothing; print what would change: a unified diff
                                  for a text file, the rows before (-) and after (+) for
                                  a database, the items as list prints them for a binary
                                  property list.
          --strict                Fail, writing nothing, when the file cannot take the
                                  edit as the app would write it (what would otherwise
                                  be a warning, such as a key todofmt had to choose).
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          -h, --help              Show help information.

        """
    ),
    (
        "undo",
        """
        OVERVIEW: Uncheck items: mark them open.

        A done item or one of a custom status ([/]) becomes open ([ ]). An item is named
        by its position as list prints it (3, 3.2) or by its exact name; a text of
        digits and dots is always a position.

        USAGE: todofmt undo [--dry-run] [--strict] [--key <key>] [--table <table>]
                            [--entity <name>] [--field <role>=<key> ...] <file>
                            <item> ...

        ARGUMENTS:
          <file>                  The todo list to edit, in any format todofmt reads
                                  (md, yaml, json, plist, bplist, sqlite, sql, a Core
                                  Data store). It is written back in place, changing
                                  only the edited items.
          <item>                  The items: positions as list prints them (3, 3.2), or
                                  exact names.

        OPTIONS:
          --dry-run               Write nothing; print what would change: a unified diff
                                  for a text file, the rows before (-) and after (+) for
                                  a database, the items as list prints them for a binary
                                  property list.
          --strict                Fail, writing nothing, when the file cannot take the
                                  edit as the app would write it (what would otherwise
                                  be a warning, such as a key todofmt had to choose).
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          -h, --help              Show help information.

        """
    ),
    (
        "toggle",
        """
        OVERVIEW: Toggle items between done and open.

        A done item becomes open; an open one, or one of a custom status, done. An item
        is named by its position as list prints it (3, 3.2) or by its exact name; a text
        of digits and dots is always a position.

        USAGE: todofmt toggle [--dry-run] [--strict] [--key <key>] [--table <table>]
                              [--entity <name>] [--field <role>=<key> ...] <file>
                              <item> ...

        ARGUMENTS:
          <file>                  The todo list to edit, in any format todofmt reads
                                  (md, yaml, json, plist, bplist, sqlite, sql, a Core
                                  Data store). It is written back in place, changing
                                  only the edited items.
          <item>                  The items: positions as list prints them (3, 3.2), or
                                  exact names.

        OPTIONS:
          --dry-run               Write nothing; print what would change: a unified diff
                                  for a text file, the rows before (-) and after (+) for
                                  a database, the items as list prints them for a binary
                                  property list.
          --strict                Fail, writing nothing, when the file cannot take the
                                  edit as the app would write it (what would otherwise
                                  be a warning, such as a key todofmt had to choose).
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          -h, --help              Show help information.

        """
    ),
    (
        "rename",
        """
        OVERVIEW: Rename an item.

        Its status, fields and nested items stay. An item is named by its position as
        list prints it (3, 3.2) or by its exact name; a text of digits and dots is
        always a position.

        USAGE: todofmt rename [--dry-run] [--strict] [--key <key>] [--table <table>]
                              [--entity <name>] [--field <role>=<key> ...] <file> <item>
                              <name>

        ARGUMENTS:
          <file>                  The todo list to edit, in any format todofmt reads
                                  (md, yaml, json, plist, bplist, sqlite, sql, a Core
                                  Data store). It is written back in place, changing
                                  only the edited items.
          <item>                  An item: its position as list prints it (3, 3.2), or
                                  its exact name. A name that several items have is an
                                  error that lists them.
          <name>                  The item's new name.

        OPTIONS:
          --dry-run               Write nothing; print what would change: a unified diff
                                  for a text file, the rows before (-) and after (+) for
                                  a database, the items as list prints them for a binary
                                  property list.
          --strict                Fail, writing nothing, when the file cannot take the
                                  edit as the app would write it (what would otherwise
                                  be a warning, such as a key todofmt had to choose).
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          -h, --help              Show help information.

        """
    ),
    (
        "rm",
        """
        OVERVIEW: Remove items, with the items nested in them.

        Every item is found before any goes, so positions name items as list printed
        them. An item is named by its position as list prints it (3, 3.2) or by its
        exact name; a text of digits and dots is always a position.

        USAGE: todofmt rm [--dry-run] [--strict] [--key <key>] [--table <table>]
                          [--entity <name>] [--field <role>=<key> ...] <file> <item> ...

        ARGUMENTS:
          <file>                  The todo list to edit, in any format todofmt reads
                                  (md, yaml, json, plist, bplist, sqlite, sql, a Core
                                  Data store). It is written back in place, changing
                                  only the edited items.
          <item>                  The items: positions as list prints them (3, 3.2), or
                                  exact names.

        OPTIONS:
          --dry-run               Write nothing; print what would change: a unified diff
                                  for a text file, the rows before (-) and after (+) for
                                  a database, the items as list prints them for a binary
                                  property list.
          --strict                Fail, writing nothing, when the file cannot take the
                                  edit as the app would write it (what would otherwise
                                  be a warning, such as a key todofmt had to choose).
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          -h, --help              Show help information.

        """
    ),
    (
        "mv",
        """
        OVERVIEW: Move an item, with the items nested in it.

        In a checklist the item's lines move (re-indented when its depth changes). An
        item is named by its position as list prints it (3, 3.2) or by its exact name; a
        text of digits and dots is always a position.

        USAGE: todofmt mv [--dry-run] [--strict] [--key <key>] [--table <table>]
                          [--entity <name>] [--field <role>=<key> ...] <file> <item>
                          <position>

        ARGUMENTS:
          <file>                  The todo list to edit, in any format todofmt reads
                                  (md, yaml, json, plist, bplist, sqlite, sql, a Core
                                  Data store). It is written back in place, changing
                                  only the edited items.
          <item>                  An item: its position as list prints it (3, 3.2), or
                                  its exact name. A name that several items have is an
                                  error that lists them.
          <position>              Where the item goes: the position list prints for it
                                  afterwards (1 is first; 2.1 makes it the first child
                                  of item 2, counted without the moved item; one past
                                  the last child of an item appends to it).

        OPTIONS:
          --dry-run               Write nothing; print what would change: a unified diff
                                  for a text file, the rows before (-) and after (+) for
                                  a database, the items as list prints them for a binary
                                  property list.
          --strict                Fail, writing nothing, when the file cannot take the
                                  edit as the app would write it (what would otherwise
                                  be a warning, such as a key todofmt had to choose).
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          -h, --help              Show help information.

        """
    ),
    (
        "set",
        """
        OVERVIEW: Set fields of an item.

        A field the item has keeps its place and takes the new value; a new one is added
        after its fields. The name and status are not fields: use rename, done and undo.
        An item is named by its position as list prints it (3, 3.2) or by its exact
        name; a text of digits and dots is always a position.

        USAGE: todofmt set [--dry-run] [--strict] [--key <key>] [--table <table>]
                           [--entity <name>] [--field <role>=<key> ...] <file> <item>
                           <key=value> ...

        ARGUMENTS:
          <file>                  The todo list to edit, in any format todofmt reads
                                  (md, yaml, json, plist, bplist, sqlite, sql, a Core
                                  Data store). It is written back in place, changing
                                  only the edited items.
          <item>                  An item: its position as list prints it (3, 3.2), or
                                  its exact name. A name that several items have is an
                                  error that lists them.
          <key=value>             A field and its value, written as in a checklist's
                                  [key:: value]: 2 is an integer, true a boolean,
                                  2024-06-01T09:00:00Z a date, "7" a string, [1, 2] an
                                  array; anything else is the text as it stands.

        OPTIONS:
          --dry-run               Write nothing; print what would change: a unified diff
                                  for a text file, the rows before (-) and after (+) for
                                  a database, the items as list prints them for a binary
                                  property list.
          --strict                Fail, writing nothing, when the file cannot take the
                                  edit as the app would write it (what would otherwise
                                  be a warning, such as a key todofmt had to choose).
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          -h, --help              Show help information.

        """
    ),
    (
        "unset",
        """
        OVERVIEW: Remove fields of an item.

        A key the item does not have is no error. An item is named by its position as
        list prints it (3, 3.2) or by its exact name; a text of digits and dots is
        always a position.

        USAGE: todofmt unset [--dry-run] [--strict] [--key <key>] [--table <table>]
                             [--entity <name>] [--field <role>=<key> ...] <file> <item>
                             <key> ...

        ARGUMENTS:
          <file>                  The todo list to edit, in any format todofmt reads
                                  (md, yaml, json, plist, bplist, sqlite, sql, a Core
                                  Data store). It is written back in place, changing
                                  only the edited items.
          <item>                  An item: its position as list prints it (3, 3.2), or
                                  its exact name. A name that several items have is an
                                  error that lists them.
          <key>                   The keys of the fields to remove.

        OPTIONS:
          --dry-run               Write nothing; print what would change: a unified diff
                                  for a text file, the rows before (-) and after (+) for
                                  a database, the items as list prints them for a binary
                                  property list.
          --strict                Fail, writing nothing, when the file cannot take the
                                  edit as the app would write it (what would otherwise
                                  be a warning, such as a key todofmt had to choose).
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          -h, --help              Show help information.

        """
    ),
    (
        "cat",
        """
        OVERVIEW: Print a todo list in any format as a Markdown checklist.

        A checklist is printed as it is, byte for byte; any other file as the checklist
        convert would write. As git's textconv (diff.todofmt.textconv = todofmt cat),
        git diff and git log -p show binary property lists and databases as checklist
        lines.

        USAGE: todofmt cat [--from <format>] [--key <key>] [--table <table>]
                           [--entity <name>] [--field <role>=<key> ...] <file>

        ARGUMENTS:
          <file>                  A todo list in any format todofmt reads, or - for
                                  standard input.

        OPTIONS:
          --from <format>         The file's format. Default: from the content, else the
                                  extension. (values: md, yaml, json, plist, bplist,
                                  sqlite, sql)
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          -h, --help              Show help information.

        """
    ),
    (
        "diff",
        """
        OVERVIEW: Show what changed between two todo lists, item by item.

        One line a change, with the item's position as list prints it: added, removed
        (its old position), checked, unchecked, status, renamed, moved, field, section,
        metadata. Items are paired by an id field, else by content; the lists may be in
        different formats.

        The exit status is 0 when the lists are the same, 1 when they differ, 2 when a
        file cannot be read. Called by git (seven arguments, nine for a renamed file) it
        prints a header line and exits 0 when the lists differ, as git requires of an
        external diff.

        USAGE: todofmt diff [--key <key>] [--table <table>] [--entity <name>]
                            [--field <role>=<key> ...] <file> ...

        ARGUMENTS:
          <file>                  The old and the new list, each in any format todofmt
                                  reads (- for standard input, /dev/null for none); or
                                  the seven arguments git passes an external diff: path
                                  old-file old-hex old-mode new-file new-hex new-mode
                                  (and for a renamed file new-path similarity).

        OPTIONS:
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          -h, --help              Show help information.

        """
    ),
    (
        "merge",
        """
        OVERVIEW: Merge two versions of a todo list by item: git's merge driver.

        Changes both sides made to different items are all kept: one checks an item
        while the other adds, removes, renames or moves others; both add items; both
        make the same change. A checklist's text around its items (front matter,
        headings, prose) is merged by lines, as git does. The result is written into
        ours, keeping its line endings.

        An item both sides changed in different ways (or one changed and the other
        removed) is a conflict: that item alone stands between <<<<<<< ours, ======= and
        >>>>>>> theirs lines. Exit status: 0 merged cleanly, 1 conflicts, 2 a file could
        not be read or written.

        USAGE: todofmt merge [--from <format>] [--key <key>] [--table <table>]
                             [--entity <name>] [--field <role>=<key> ...] <base> <ours>
                             <theirs> [<path>]

        ARGUMENTS:
          <base>                  The common ancestor (git's %O); an empty file is an
                                  empty list.
          <ours>                  Our version (git's %A); the merged result is written
                                  into it.
          <theirs>                Their version (git's %B).
          <path>                  The file's path in the repository (git's %P): its
                                  extension names the format when the content does not,
                                  and messages name it.

        OPTIONS:
          --from <format>         The files' format. Default: the path's extension, else
                                  what ours' content is, else md. (values: md, yaml,
                                  json, plist, bplist, sqlite, sql)
          --key <key>             The key of a dictionary root (a UserDefaults file, a
                                  JSON object) that holds the list. Default: the one key
                                  that does.
          --table <table>         The table of a database that holds the list (on a new
                                  database, the table it creates). Default: todofmt's
                                  own, else the one with a name column.
          --entity <name>         The Core Data entity whose rows are the list, by its
                                  name in the store (Note, TodoItem). Default: the one
                                  entity with a name attribute.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order).
                                  checked=<key>:<value> names the value that means done
                                  (checked=status:3); status=<key>:<value>=<c> the value
                                  of custom status c (status=status:2=-). May repeat.
          -h, --help              Show help information.

        """
    ),
    (
        "completions",
        """
        OVERVIEW: Print a completion script for bash, zsh or fish.

        Load it into the running shell with 'source <(todofmt completions bash)' (zsh
        alike; fish: 'todofmt completions fish | source'), or save it where the shell
        looks for completions: as todofmt in bash-completion's completions folder, as
        _todofmt in a folder of zsh's fpath, as todofmt.fish in a fish completions
        folder.

        USAGE: todofmt completions <shell>

        ARGUMENTS:
          <shell>                 The shell to complete todofmt's command lines in.
                                  (values: bash, zsh, fish)

        OPTIONS:
          -h, --help              Show help information.

        """
    ),
    (
        "help",
        """
        OVERVIEW: Show help for a subcommand.

        USAGE: todofmt help [--man] [<subcommand>]

        ARGUMENTS:
          <subcommand>            The subcommand to describe; without it, todofmt's own
                                  help. (values: convert, fmt, check, list, add, done,
                                  undo, toggle, rename, rm, mv, set, unset, cat, diff,
                                  merge, completions, help)

        OPTIONS:
          --man                   Print the man page todofmt(1), in roff, instead of
                                  help (read it with 'man -l -').
          -h, --help              Show help information.

        """
    ),
]

@Suite("todofmt's help")
struct HelpTests {
    @Test("todofmt help <subcommand> prints exactly the golden text, to standard output, exit 0", arguments: goldenHelp)
    func golden(command: String, text: String) throws {
        let run = try Run(command.isEmpty ? ["help"] : ["help", command])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout == text)
    }

    @Test(
        "--help and -h print the same as the help subcommand, even after files and other options", arguments: goldenHelp
    )
    func helpFlags(command: String, text: String) throws {
        var variants = [["--help"], ["-h"], ["--bogus", "-h"]]
        if !command.isEmpty { variants += [["a.md", "--help"], ["--from", "csv", "-h", "a.md"]] }
        for arguments in variants.map({ (command.isEmpty ? [] : [command]) + $0 }) {
            let run = try Run(arguments)
            #expect(run.status == 0, "\(arguments)")
            #expect(run.stdout == text, "\(arguments)")
            #expect(run.stderr.isEmpty, "\(arguments)")
        }
    }

    @Test("every line fits in 80 columns; every description starts at column 26", arguments: goldenHelp)
    func layout(command: String, text: String) {
        var inEntries = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(line.count <= Help.width, "\(line)")
            if line.isEmpty {
                inEntries = false
            } else if ["ARGUMENTS:", "OPTIONS:", "SUBCOMMANDS:"].contains(line) {
                inEntries = true
            } else if inEntries {
                // A label from column 2, or a continuation; the words from column 26.
                let characters = Array(line)
                let column = Help.descriptionColumn
                #expect(
                    characters.count > column && characters[column - 1] == " " && characters[column] != " ", "\(line)")
                #expect(characters[2] != " " || line.hasPrefix(String(repeating: " ", count: column)), "\(line)")
            }
        }
    }

    @Test("OPTIONS lists every option of the spec, -h, --help last; ARGUMENTS every argument")
    func everythingListed() {
        for spec in [CLI.spec] + CLI.spec.subcommands {
            let text = Help.text(for: spec, under: spec.name == CLI.name ? nil : CLI.spec)
            let options = text.components(separatedBy: "\nOPTIONS:\n")[1].components(separatedBy: "\n\n")[0]
            let labels = options.split(separator: "\n").filter { !$0.hasPrefix("   ") }
                .map { $0.dropFirst(2).components(separatedBy: "  ")[0] }
            #expect(labels == spec.allOptions.map(\.label), "\(spec.name)")
            #expect(labels.last == "-h, --help")
            for argument in spec.arguments {
                #expect(text.contains("\n  \(argument.placeholder) "), "\(spec.name) \(argument.name)")
            }
        }
    }
}

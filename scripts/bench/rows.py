"""What the benchmark measures: one line a row.

A command is an argv template, split like a shell line: `todofmt` is the release build,
`{md}`, `{json}`… are the inputs at the size being measured (see inputs.py), `{o}` is the
row's scratch folder (emptied before every run), `< FILE` and `> FILE` redirect. stdout
goes to /dev/null unless redirected.

Row(key, command, reference, goal, ...):
  key      a short name; other rows may use it as their reference
  ref      the key of a REFS entry or of another row, measured at the same size
  goal     "≤0.25x" / "<1x": the largest size's time (or size) over the reference's
  ipb      at most this many instructions per input byte (callgrind on {head} for {md})
  mem      peak memory at most this multiple of the input (the `basis` file)
  basis    the input whose size gives MB/s and the memory ratio (default: the command's
           first input)
  before   an untimed command run before each timed run (`cp {md} {o}/x.md`)
  needs    "CMD [--option...]": skipped unless `todofmt help CMD` succeeds and mentions every
           option (`list --field` exists today for roles, so the filter row also needs --open)
  note     added to the row's label
  ok       exit statuses that count as success
  once     measured at the largest size only (its input does not scale: {deep})
  slow     left out by --quick
  size     compares file sizes, not times (the command is a file)
"""
from dataclasses import dataclass


@dataclass
class Row:
    key: str
    cmd: str
    ref: str = ""
    goal: str = ""
    ipb: float = 0
    mem: float = 0
    basis: str = ""
    before: str = ""
    needs: str = ""
    note: str = ""
    ok: tuple = (0,)
    once: bool = False
    slow: bool = False
    size: bool = False
    label: str = ""          # what the table shows; made from the command when empty


PY = "python3 -c"
REFS = [
    Row("cmark", "cmark-gfm -e tasklist {md}"),
    Row("cmark-deep", "cmark-gfm -e tasklist {deep}", once=True),
    Row("cmark-deepest", "cmark-gfm -e tasklist {deepest}", once=True),
    Row("json.load", PY + " 'import json,sys; json.load(open(sys.argv[1], \"rb\"))' {json}",
        label="python3 json.load"),
    Row("plistlib", PY + " 'import plistlib,sys; plistlib.load(open(sys.argv[1], \"rb\"))' {bplist}",
        label="python3 plistlib.load x.bplist"),
    Row("plistlib-xml", PY + " 'import plistlib,sys; plistlib.load(open(sys.argv[1], \"rb\"))' {xml}",
        label="python3 plistlib.load x.plist"),
    Row("libyaml", "{yaml_events} {yaml}", label="yaml_events x.yaml (libyaml)"),
    Row("select", "sqlite3 {generic} 'select * from todo order by position'",
        label="sqlite3 generic.db 'select … order by position'"),
    Row("select-own", "sqlite3 {sqlite} 'select * from todo_items order by parent, position'",
        label="sqlite3 x.sqlite 'select … order by parent, position'"),
    Row("load-dump", "sqlite3 {o}/x.db < {sql}"),
    # What libsqlite3 alone takes: every column of every row read through its C API, and the
    # removal of the middle item's row with the UPDATE that renumbers the top-level rows after
    # it (what `todofmt rm` must change), in one transaction.
    Row("sqlite-rows", "{sqlite_rows} {sqlite} todo_items", label="sqlite_rows x.sqlite (libsqlite3)"),
    Row("sqlite-shift",
        "sqlite3 {o}/x.sqlite 'BEGIN; DELETE FROM todo_items WHERE rowid = {half} + 1; "
        "UPDATE todo_items SET position = position - 1 WHERE parent IS NULL AND rowid > {half} + 1; COMMIT'",
        before="cp {sqlite} {o}/x.sqlite", label="sqlite3: DELETE the row, UPDATE the positions after"),
    Row("plistlib-size", "{bplist_py}", size=True, label="plistlib.dump of the same data"),
]

VS_CONVERT = dict(ref="md>json", goal="≤1.5x", mem=3)    # issue 11: every other command
VS_CONVERT_3X = dict(ref="md>json", goal="≤3x", mem=3)   # issue 10: diff across formats, merge
EDIT = dict(VS_CONVERT, before="cp {md} {o}/x.md")       # editing commands work on a copy

ROWS = [
    # Markdown in, other formats out and back, beside each format's reference (issue 11)
    Row("md>json", "todofmt convert {md} {o}/x.json", "cmark", "≤0.25x", ipb=40),
    Row("json>md", "todofmt convert {json} {o}/x.md", "json.load", "<1x"),
    Row("md>bplist", "todofmt convert --to bplist {md} {o}/x.plist", "plistlib", "≤0.5x"),
    Row("bplist>md", "todofmt convert {bplist} {o}/x.md", "plistlib", "≤0.5x"),
    Row("xml>md", "todofmt convert {xml} {o}/x.md", "plistlib-xml", "≤0.5x"),
    Row("yaml>md", "todofmt convert {yaml} {o}/x.md", "libyaml", "≤1.5x"),
    Row("generic>md", "todofmt convert {generic} {o}/x.md", "select", "≤2x"),
    Row("sqlite>md", "todofmt convert {sqlite} {o}/x.md", "select-own", "≤2x"),
    Row("md>sqlite", "todofmt convert {md} {o}/x.sqlite", "load-dump", "<1x"),
    Row("bplist-size", "{bplist}", "plistlib-size", "≤1x", size=True, label="size of x.bplist"),
    Row("md>yaml", "todofmt convert {md} {o}/x.yaml", **VS_CONVERT),
    Row("md>xml", "todofmt convert {md} {o}/x.plist", **VS_CONVERT),
    Row("md>sql", "todofmt convert {md} {o}/x.sql", **VS_CONVERT),

    # todofmt's own commands on the same file, beside the conversion (issue 11)
    Row("fmt", "todofmt fmt {o}/x.md", basis="md", **EDIT),
    Row("fmt --check", "todofmt fmt --check {md}", **VS_CONVERT),
    Row("check", "todofmt check {md}", **VS_CONVERT),
    Row("list", "todofmt list {md}", **VS_CONVERT),

    # into an existing file: the same list, then the list with one item changed (issue 8)
    Row("=md", "todofmt convert {md} {o}/x.md", before="cp {md} {o}/x.md", basis="md", note="existing", **VS_CONVERT),
    Row("=md'", "todofmt convert {md1} {o}/x.md", before="cp {md} {o}/x.md", basis="md", note="existing, 1 changed", **VS_CONVERT),
    Row("=json", "todofmt convert {md} {o}/x.json", before="cp {json} {o}/x.json", basis="json", note="existing", **VS_CONVERT),
    Row("=json'", "todofmt convert {md1} {o}/x.json", before="cp {json} {o}/x.json", basis="json", note="existing, 1 changed", **VS_CONVERT),
    Row("=yaml", "todofmt convert {md} {o}/x.yaml", before="cp {yaml} {o}/x.yaml", basis="yaml", note="existing", **VS_CONVERT),
    Row("=yaml'", "todofmt convert {md1} {o}/x.yaml", before="cp {yaml} {o}/x.yaml", basis="yaml", note="existing, 1 changed", **VS_CONVERT),
    # into an existing file, every tenth item changed: the whole-list write's pairing (issue 11)
    Row("=md10", "todofmt convert {md10} {o}/x.md", before="cp {md} {o}/x.md", basis="md", note="existing, a tenth changed", **VS_CONVERT),
    Row("=json10", "todofmt convert {md10} {o}/x.json", before="cp {json} {o}/x.json", basis="json", note="existing, a tenth changed", **VS_CONVERT),
    Row("=xml10", "todofmt convert {md10} {o}/x.plist", before="cp {xml} {o}/x.plist", basis="xml", note="existing XML, a tenth changed", **VS_CONVERT),
    # issue 8's own goal for YAML: one changed item written into the file against a new YAML file
    Row("=yaml' vs new", "todofmt convert {md1} {o}/x.yaml", ref="md>yaml", goal="≤1.5x", mem=3, before="cp {yaml} {o}/x.yaml",
        basis="yaml", note="existing, 1 changed; against writing a new YAML file"),
    Row("=xml", "todofmt convert {md} {o}/x.plist", before="cp {xml} {o}/x.plist", basis="xml", note="existing XML", **VS_CONVERT),
    Row("=xml'", "todofmt convert {md1} {o}/x.plist", before="cp {xml} {o}/x.plist", basis="xml", note="existing XML, 1 changed", **VS_CONVERT),
    Row("=bplist", "todofmt convert {md} {o}/x.plist", before="cp {bplist} {o}/x.plist", basis="bplist", note="existing binary", **VS_CONVERT),
    Row("=bplist'", "todofmt convert {md1} {o}/x.plist", before="cp {bplist} {o}/x.plist", basis="bplist", note="existing binary, 1 changed", **VS_CONVERT),
    Row("=sqlite", "todofmt convert {md} {o}/x.sqlite", before="cp {sqlite} {o}/x.sqlite", basis="sqlite", note="existing", **VS_CONVERT),
    Row("=sqlite'", "todofmt convert {md1} {o}/x.sqlite", before="cp {sqlite} {o}/x.sqlite", basis="sqlite", note="existing, 1 changed", **VS_CONVERT),
    Row("=sql", "todofmt convert {md} {o}/x.sql", before="cp {sql} {o}/x.sql", basis="sql", note="existing", **VS_CONVERT),
    Row("=sql'", "todofmt convert {md1} {o}/x.sql", before="cp {sql} {o}/x.sql", basis="sql", note="existing, 1 changed", **VS_CONVERT),
    # the same, beside converting the list into a new file of the format (issue 8's goal)
    Row("=xml'new", "todofmt convert {md1} {o}/x.plist", "md>xml", "≤1.5x", mem=3, before="cp {xml} {o}/x.plist", basis="xml",
        note="existing XML, 1 changed, vs a new XML file"),
    Row("=bplist'new", "todofmt convert {md1} {o}/x.plist", "md>bplist", "≤1.5x", mem=3, before="cp {bplist} {o}/x.plist",
        basis="bplist", note="existing binary, 1 changed, vs a new binary file"),
    Row("=sqlite'new", "todofmt convert {md1} {o}/x.sqlite", "md>sqlite", "≤1.5x", mem=3, before="cp {sqlite} {o}/x.sqlite",
        basis="sqlite", note="existing, 1 changed, vs a new database"),
    Row("=sql'new", "todofmt convert {md1} {o}/x.sql", "md>sql", "≤1.5x", mem=3, before="cp {sql} {o}/x.sql", basis="sql",
        note="existing, 1 changed, vs a new dump"),
    # a list from another format into an existing checklist, beside converting it into a new one
    Row("=md from json", "todofmt convert {json} {o}/x.md", "json>md", "≤1.5x", mem=3, before="cp {mdj} {o}/x.md",
        basis="json", note="existing, from JSON, vs a new checklist"),
    Row("=md' from json", "todofmt convert {json1} {o}/x.md", "json>md", "≤1.5x", mem=3, before="cp {mdj} {o}/x.md",
        basis="json", note="existing, from JSON, 1 changed, vs a new checklist"),
    # The checklist the JSON came from, as people keep one: `##` headings, front matter and a
    # blank line; its dates come back from JSON as strings, which are dates again under its
    # date keys, so nothing changes (before, 20,000 fields came back quoted).
    Row("=md## from json", "todofmt convert {json} {o}/x.md", "json>md", "≤1.5x", mem=3, before="cp {md} {o}/x.md",
        basis="json", note="existing checklist it came from, vs a new checklist"),

    # list's filters and paging (issue 10): measured once this build has them
    Row("list --open", "todofmt list --open {md}", needs="list --open", **VS_CONVERT),
    Row("list --status", "todofmt list --status / {md}", needs="list --status", **VS_CONVERT),
    Row("list --section", "todofmt list --section {section} {md}", needs="list --section", **VS_CONVERT),
    Row("list --grep", "todofmt list --grep 日本語 {md}", needs="list --grep", **VS_CONVERT),
    Row("list --field", "todofmt list --field prio=2 {md}", needs="list --open --field", **VS_CONVERT),
    Row("list --limit", "todofmt list --limit 20 --offset {half} {md}", needs="list --limit --offset", **VS_CONVERT),
    Row("list --sort", "todofmt list --sort prio:desc,name {md}", needs="list --sort", **VS_CONVERT),
    Row("list --format", "todofmt list --format json {md}", needs="list --format", **VS_CONVERT),

    # editing commands on a copy of the checklist, and on other formats (issue 10)
    Row("done", "todofmt done {o}/x.md {mid}", needs="done", basis="md", **EDIT),
    Row("undo", "todofmt undo {o}/x.md {mid}", needs="undo", basis="md", **EDIT),
    Row("toggle", "todofmt toggle {o}/x.md {mid}", needs="toggle", basis="md", **EDIT),
    Row("add", "todofmt add {o}/x.md 'new item 🚀'", needs="add", basis="md", **EDIT),
    Row("add --under", "todofmt add {o}/x.md 'new child' --under {mid}", needs="add --under", basis="md", **EDIT),
    Row("rm", "todofmt rm {o}/x.md {mid}", needs="rm", basis="md", **EDIT),
    Row("mv", "todofmt mv {o}/x.md {mid} 1", needs="mv", basis="md", **EDIT),
    Row("rename", "todofmt rename {o}/x.md {mid} 'renamed ✅'", needs="rename", basis="md", **EDIT),
    Row("set", "todofmt set {o}/x.md {mid} prio=3", needs="set", basis="md", **EDIT),
    Row("unset", "todofmt unset {o}/x.md {mid} prio", needs="unset", basis="md", **EDIT),
    # on the other formats: toggle (the middle item is done, so `done` would change
    # nothing), and the edits that add, remove and move items
    *[Row(f"{cmd} {fmt}", f"todofmt {cmd} {{o}}/x.{ext} {args}", needs=cmd, note=note,
          before=f"cp {{{fmt}}} {{o}}/x.{ext}", basis=fmt, **VS_CONVERT)
      for fmt, ext, note in [("json", "json", ""), ("yaml", "yaml", ""), ("xml", "plist", "XML"),
                             ("bplist", "plist", "binary"), ("sqlite", "sqlite", ""), ("sql", "sql", "")]
      for cmd, args in [("toggle", "{mid}"), ("add", "'new item 🚀'"), ("rm", "{mid}"), ("mv", "{mid} 1")]],

    # git: textconv, diff by item, merge driver (issue 10)
    Row("cat", "todofmt cat {md}", needs="cat", **VS_CONVERT),
    Row("cat bplist", "todofmt cat {bplist}", needs="cat", **VS_CONVERT),
    Row("cat sqlite", "todofmt cat {sqlite}", needs="cat", **VS_CONVERT),
    # The SQLite rows above beside what libsqlite3 alone takes for them (no goal: these show
    # the floor under the ones that miss theirs).
    Row("floor cat sqlite", "todofmt cat {sqlite}", "sqlite-rows", needs="cat", note="against libsqlite3's read"),
    Row("floor rm sqlite", "todofmt rm {o}/x.sqlite {mid}", "sqlite-shift", needs="rm", before="cp {sqlite} {o}/x.sqlite",
        basis="sqlite", note="against SQLite's own UPDATE"),
    Row("diff", "todofmt diff {md} {md1}", needs="diff", ok=(0, 1), **VS_CONVERT),
    Row("diff json", "todofmt diff {json} {md1}", needs="diff", ok=(0, 1), **VS_CONVERT_3X),
    Row("merge", "todofmt merge {md} {o}/ours.md {md2}", needs="merge", before="cp {md1} {o}/ours.md", basis="md", **VS_CONVERT_3X),
    Row("diff10", "todofmt diff {md} {md10}", needs="diff", ok=(0, 1), note="a tenth changed", **VS_CONVERT),

    # items nested DEEP levels (4,000 by default: past todofmt's limit, so an error at the
    # 257th level), and stacks nested as deep as todofmt reads, beside cmark-gfm (issue 12)
    Row("deep", "todofmt convert {deep} {o}/x.json", "cmark-deep", "≤2x", once=True, ok=(1,)),
    Row("deepest", "todofmt convert {deepest} {o}/x.json", "cmark-deepest", "≤2x", once=True),
]

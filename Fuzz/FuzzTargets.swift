// libFuzzer targets for todofmt's readers, built by scripts/fuzz.sh with the library's
// sources (`swiftc -sanitize=fuzzer,address -parse-as-library`). One binary holds them all;
// TODOFMT_FUZZ_TARGET names the one to run. Each checks properties, not only "no crash":
// what reads back is what was written, and an error has a place inside the input.
import Foundation

/// The targets, by name.
let targets: [String: ([UInt8]) -> Void] = [
    "markdown": fuzzMarkdown,
    "yaml": { fuzzRoundTrip($0, format: .yaml) },
    "json": { fuzzRoundTrip($0, format: .json) },
    "plist": { fuzzRoundTrip($0, format: .plist) },
    "bplist": { fuzzRoundTrip($0, format: .bplist) },
    "sql": { fuzzRoundTrip($0, format: .sql) },
    "merge": fuzzMerge,
]

let selected: ([UInt8]) -> Void = {
    let name = ProcessInfo.processInfo.environment["TODOFMT_FUZZ_TARGET"] ?? ""
    guard let target = targets[name] else {
        FileHandle.standardError.write(Data("TODOFMT_FUZZ_TARGET must be one of \(targets.keys.sorted())\n".utf8))
        exit(2)
    }
    return target
}()

/// libFuzzer's entry point: runs the selected target on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    selected(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// Stops the run: libFuzzer keeps the input that broke a property as a crash.
func broken(_ property: String, _ input: [UInt8]) -> Never {
    FileHandle.standardError.write(Data("property broken: \(property)\n".utf8))
    abort()
}

/// An error's place must lie inside the input (line 0 means "the whole file").
func checkPlace(of error: Error, in input: [UInt8]) {
    let location: SourceLocation?
    switch error {
    case let error as ParseError: location = error.location
    case let error as StoreError: location = error.location
    default: location = nil
    }
    guard let location else { return }
    if let offset = location.byteOffset, offset > input.count {
        broken("error offset \(offset) past the input: \(error)", input)
    }
    // Lines end in LF, CR LF or (as YAML counts them) a CR alone.
    var lines = 1
    for (i, byte) in input.enumerated() where byte == 10 || (byte == 13 && (i + 1 == input.count || input[i + 1] != 10))
    {
        lines += 1
    }
    if location.line > lines + 1 {
        broken("error line \(location.line) past the input's \(lines) lines: \(error)", input)
    }
}

/// A checklist: it reads, the list written into its own text changes nothing, `fmt` keeps
/// the items and is idempotent.
func fuzzMarkdown(_ input: [UInt8]) {
    guard String(validating: input, as: UTF8.self) != nil else { return }
    let document: TodoDocument
    do {
        document = try TodoDocument(bytes: input, path: "fuzz.md")
    } catch {
        checkPlace(of: error, in: input)
        return
    }
    let list = document.list
    var copy = document
    do {
        try copy.update(with: list)
    } catch {
        broken("writing a checklist's own list into it failed: \(error)", input)
    }
    if Array(copy.markdown().utf8) != input { broken("writing a checklist's own list into it changed it", input) }
    guard let formatted = try? document.formatted() else { return }
    if formatted.list.flattened().map(\.item.name) != list.flattened().map(\.item.name) {
        broken("fmt changed the items' names", input)
    }
    guard let again = try? formatted.formatted(), again.markdown() == formatted.markdown() else {
        broken("fmt is not idempotent", input)
    }
}

/// Any other format: what reads is written as a new file of the format and reads back as
/// the same items, unless the writer warned that it could not hold something.
func fuzzRoundTrip(_ input: [UInt8], format: DocumentFormat) {
    let list: TodoList
    do {
        list = try TodoList(bytes: input, format: format, name: "fuzz")
    } catch {
        checkPlace(of: error, in: input)
        return
    }
    let written: Written
    do {
        var writer = DepthLimitedWriter.guarding(
            try FormatRegistry.format(format).writer(to: .memory, options: ListOptions()), format: format)
        try list.send(to: &writer)
        written = try writer.finish()
    } catch {
        return  // a list the format cannot hold is refused before anything is written
    }
    // A loss the format documents comes with its warning (control characters in XML, say).
    guard written.warnings.isEmpty else { return }
    let bytes = written.bytes
    do {
        let back = try TodoList(bytes: bytes, format: format, name: "fuzz-back")
        if back.flattened().map(\.item.name) != list.flattened().map(\.item.name) {
            broken("the names changed through a new \(format.rawValue) file", input)
        }
    } catch {
        broken("a \(format.rawValue) file todofmt wrote does not read back: \(error)", input)
    }
}

/// The merge driver: the input holds three checklists separated by NUL bytes (base, ours,
/// theirs). A side that did not change gives the other side exactly, and merging a
/// checklist with itself gives it back.
func fuzzMerge(_ input: [UInt8]) {
    let parts = input.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, let base = String(validating: parts[0], as: UTF8.self),
        let ours = String(validating: parts[1], as: UTF8.self), let theirs = String(validating: parts[2], as: UTF8.self)
    else { return }
    do {
        _ = try TodoMerge.checklists(base: base, ours: ours, theirs: theirs, path: "fuzz.md")
    } catch {
        checkPlace(of: error, in: input)
        return
    }
    for (side, expected) in [((base, base, theirs)), ((base, ours, base))].map({ ($0, $0.1 == base ? $0.2 : $0.1) }) {
        guard let merged = try? TodoMerge.checklists(base: side.0, ours: side.1, theirs: side.2, path: "fuzz.md") else {
            broken("merging with an unchanged side failed", input)
        }
        if merged.conflicts != 0 || merged.bytes != Array(expected.utf8) {
            broken("merging with an unchanged side did not give the other side", input)
        }
    }
}

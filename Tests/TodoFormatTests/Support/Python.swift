import Foundation

/// Files made and read by Python's own plistlib and json, for interop tests.
enum Python {
    /// Runs a Python program with `dir` as its first argument; fails the test on an error.
    @discardableResult
    static func run(_ program: String, in directory: TemporaryDirectory, stdin: Data? = nil) throws -> String {
        let result = try ExternalTool.run("python3", ["-c", program, directory.url.path], stdin: stdin)
        guard result.status == 0 else {
            throw NSError(
                domain: "Python", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr])
        }
        return result.text
    }

    /// A program's preamble: imports, the directory, and `canon`, which turns a loaded value
    /// into JSON text that compares equal exactly when the values (and their types) are equal.
    static let prelude = """
        import sys, os, json, plistlib, datetime, base64
        d = sys.argv[1]
        def typed(v):
            if isinstance(v, bool): return ["bool", v]
            if isinstance(v, int): return ["int", v]
            if isinstance(v, float): return ["real", v]
            if isinstance(v, datetime.datetime): return ["date", v.isoformat()]
            if isinstance(v, bytes): return ["data", base64.b64encode(v).decode()]
            if isinstance(v, dict): return {k: typed(x) for k, x in v.items()}
            if isinstance(v, list): return [typed(x) for x in v]
            return v
        def canon(v): return json.dumps(typed(v), sort_keys=False, ensure_ascii=False)

        """
}

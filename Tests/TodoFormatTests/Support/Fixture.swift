import Foundation

/// The test inputs in Fixtures/, declared as resources of this target.
enum Fixture {
    static func url(_ path: String) -> URL {
        Bundle.module.url(forResource: "Fixtures/" + path, withExtension: nil)!
    }

    static func path(_ path: String) -> String { url(path).path }

    static func data(_ path: String) throws -> Data { try Data(contentsOf: url(path)) }

    static func text(_ path: String) throws -> String { String(decoding: try data(path), as: UTF8.self) }

    /// Every file in a fixture folder, by name.
    static func files(in folder: String) -> [String] {
        let directory = Bundle.module.url(forResource: "Fixtures/" + folder, withExtension: nil)!
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
            .map { folder + "/" + $0 }
    }
}

import Foundation
import Testing

/// The app fixtures in YAML: each reads as its checklist, the unchanged round trip leaves it
/// byte for byte as it was, and each edit gives the expected file, which PyYAML still reads.
@Suite("YAML fixtures built like real files", .needsYAML)
struct YAMLFixtureTests {
    @Test("reads as its expected checklist, and reading changes nothing", arguments: AppFixture.fixtures(["yaml"]))
    func reading(_ fixture: AppFixture) throws {
        try fixture.checkReading()
    }

    @Test("the unchanged round trip leaves it as it was", arguments: AppFixture.fixtures(["yaml"]))
    func unchangedRoundTrip(_ fixture: AppFixture) throws {
        try fixture.checkUnchangedRoundTrip()
    }

    @Test("each edit gives the expected file, and PyYAML reads it", arguments: AppFixture.edits(["yaml"]))
    func edit(_ c: AppFixture.EditCase) throws {
        try c.fixture.check(edit: c.name)
        guard let result = c.fixture.edits[c.name]?.result else { return }
        let path = AppFixture.folder.appendingPathComponent(result).path
        let read = try AppFixture.tool([
            "python3", "-c", "import sys, yaml; list(yaml.safe_load_all(open(sys.argv[1]))); print('ok')", path,
        ])
        #expect(read == "ok\n", "PyYAML cannot read \(result)")
    }
}

// swift-tools-version:6.1
import PackageDescription

// SQLite comes with every Apple SDK (macOS, iOS, tvOS, watchOS, visionOS): there the module
// map's `link "sqlite3"` finds the system's library, and no pkg-config lookup can put a
// Homebrew SQLite built for the Mac into an iOS build. Elsewhere pkg-config finds it.
#if canImport(Darwin)
let sqlitePkgConfig: String? = nil
#else
let sqlitePkgConfig: String? = "sqlite3"
#endif

let package = Package(
    name: "todofmt",
    // Where the apps todofmt serves run, so they can depend on the library. The floors are
    // the first releases whose standard library has the string algorithms Swift 6 code uses
    // freely (`contains` of a string); only Linux builds are tested here.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "TodoFormat", targets: ["TodoFormat"]),
        .executable(name: "todofmt", targets: ["todofmt"]),
    ],
    // `YAML` (on by default) brings in libyaml for YAML lists and checklists' front matter.
    // Without it (`swift build --disable-default-traits`), as in an iOS app where libyaml is
    // not a system library, the rest builds: front matter stays raw text, kept byte for byte.
    traits: [
        .trait(name: "YAML", description: "YAML lists and front matter through the system's libyaml"),
        .default(enabledTraits: ["YAML"]),
    ],
    targets: [
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: sqlitePkgConfig, providers: [.apt(["libsqlite3-dev"])]),
        // A header of one inline function: a prefetch hint for loops that gather scattered bytes.
        .systemLibrary(name: "CPrefetch"),
        .target(
            name: "TodoFormat",
            dependencies: [.target(name: "CYAML", condition: .when(traits: ["YAML"])), "CSQLite", "CPrefetch"]
        ),
        .executableTarget(name: "todofmt", dependencies: ["TodoFormat"]),
        // README's library example, built with everything else.
        .executableTarget(name: "library-example", dependencies: ["TodoFormat"], path: "Examples/LibraryUse"),
        .testTarget(
            name: "TodoFormatTests",
            dependencies: ["TodoFormat"],
            resources: [.copy("Fixtures")]
        ),
        // Scripts/ holds the Python the crash-safety test runs from the repository.
        .testTarget(name: "todofmtTests", dependencies: ["todofmt", "TodoFormat"], exclude: ["Scripts"]),
    ],
    swiftLanguageModes: [.v6]
)

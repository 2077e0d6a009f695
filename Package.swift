// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "todofmt",
    products: [
        .library(name: "TodoFormat", targets: ["TodoFormat"]),
        .executable(name: "todofmt", targets: ["todofmt"]),
    ],
    targets: [
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "TodoFormat", dependencies: ["CYAML", "CSQLite"]),
        .executableTarget(name: "todofmt", dependencies: ["TodoFormat"]),
        // README's library example, built with everything else.
        .executableTarget(name: "library-example", dependencies: ["TodoFormat"], path: "Examples/LibraryUse"),
        .testTarget(
            name: "TodoFormatTests",
            dependencies: ["TodoFormat"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "todofmtTests", dependencies: ["todofmt", "TodoFormat"]),
    ],
    swiftLanguageModes: [.v6]
)

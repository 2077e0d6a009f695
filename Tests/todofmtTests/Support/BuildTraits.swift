import Testing

/// Whether this build has YAML (the package's `YAML` trait, on by default).
#if YAML
let buildHasYAML = true
#else
let buildHasYAML = false
#endif

extension Trait where Self == ConditionTrait {
    /// A test that needs YAML (YAML lists, front matter parsed as metadata): it runs in the
    /// default build and is skipped in one built with `--disable-default-traits`.
    static var needsYAML: Self { .enabled(if: buildHasYAML, "this build has no YAML (the YAML trait is off)") }
}

#if YAML
import Testing

@testable import TodoFormat

@Suite("The libyaml emitter wrapper")
struct YAMLEmitterTests {
    @Test("events in order make YAML text, handed over when the stream ends")
    func text() throws {
        let emitter = try YAMLEmitter()
        try emitter.streamStart()
        try emitter.documentStart(implicit: true)
        try emitter.mappingStart()
        try emitter.scalar("name")
        try emitter.scalar("Milk", style: .doubleQuoted)
        try emitter.scalar("data")
        try emitter.scalar("aGk=", tag: YAMLValue.binaryTag)
        try emitter.mappingEnd()
        try emitter.documentEnd()
        try emitter.streamEnd()
        #expect(String(decoding: emitter.output, as: UTF8.self) == "name: \"Milk\"\ndata: !!binary aGk=\n")
    }

    /// Sequences of calls that end in one libyaml refuses, and its reason.
    enum Refusal: String, CaseIterable, Sendable {
        case scalarBeforeStream, mappingEndForNode, emptyTag, secondStream

        func perform(on emitter: YAMLEmitter) throws(ConversionError) {
            switch self {
            case .scalarBeforeStream:
                try emitter.scalar("x")
            case .mappingEndForNode:
                try emitter.streamStart()
                try emitter.documentStart(implicit: true)
                try emitter.mappingEnd()
            case .emptyTag:
                try emitter.streamStart()
                try emitter.documentStart(implicit: true)
                try emitter.scalar("x", tag: "")
            case .secondStream:
                try emitter.streamStart()
                try emitter.streamEnd()
                try emitter.streamStart()
            }
        }

        var message: String {
            switch self {
            case .scalarBeforeStream: "yaml: expected STREAM-START"
            case .mappingEndForNode: "yaml: expected SCALAR, SEQUENCE-START, MAPPING-START, or ALIAS"
            case .emptyTag: "yaml: tag value must not be empty"
            case .secondStream: "yaml: expected nothing after STREAM-END"
            }
        }
    }

    @Test("what libyaml refuses is thrown with its reason, not asserted", arguments: Refusal.allCases)
    func refused(refusal: Refusal) throws {
        let emitter = try YAMLEmitter()
        #expect(throws: ConversionError.encoding(refusal.message)) { try refusal.perform(on: emitter) }
    }
}
#endif

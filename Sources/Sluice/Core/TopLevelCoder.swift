/// A type that encodes a value into one top-level output, such as Foundation's `JSONEncoder` (which
/// conforms in SluiceFoundation); ``Publisher/encode(encoder:)`` uses it to encode each element.
public protocol TopLevelEncoder {
    /// What the encoder produces, such as `Data`.
    associatedtype Output

    /// Encodes `value`; an error it throws fails an ``Publishers/Encode`` stream.
    func encode<T: Encodable>(_ value: T) throws -> Output
}

/// A type that decodes a value from one top-level input, such as Foundation's `JSONDecoder` (which
/// conforms in SluiceFoundation); ``Publisher/decode(type:decoder:)`` uses it to decode each element.
public protocol TopLevelDecoder {
    /// What the decoder reads, such as `Data`.
    associatedtype Input

    /// Decodes a value of `type` from `from`; an error it throws fails a ``Publishers/Decode`` stream.
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

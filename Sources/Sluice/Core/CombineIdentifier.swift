import Synchronization

/// A unique identifier for identifying publisher streams: made with ``init()``, unique for the process;
/// made from an object, equal for the same object.
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
    private static let counter = Atomic<UInt64>(0)

    private let rawValue: UInt64

    /// Creates a unique identifier.
    public init() {
        // Identifiers from objects have the low bit clear (objects are aligned); counters set it.
        rawValue = (Self.counter.wrappingAdd(1, ordering: .relaxed).newValue << 1) | 1
    }

    /// Creates an identifier from the identity of an object.
    public init(_ obj: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
    }

    /// The identifier as a hexadecimal number.
    public var description: String {
        "0x" + String(rawValue, radix: 16)
    }
}

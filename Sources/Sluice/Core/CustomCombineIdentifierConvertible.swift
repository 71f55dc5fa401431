/// A protocol for uniquely identifying publisher streams. Classes get a ``combineIdentifier`` derived from
/// their identity for free; a value-type subscriber must provide one.
public protocol CustomCombineIdentifierConvertible {
    /// A unique identifier for identifying publisher streams.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// The identifier of this object, derived from its identity.
    public var combineIdentifier: CombineIdentifier {
        CombineIdentifier(self)
    }
}

/// A protocol for uniquely identifying publisher streams.
///
/// Classes get a ``combineIdentifier`` derived from their identity for free; a value-type
/// subscriber must provide one.
///
/// ```swift
/// struct MySubscriber: Subscriber {
///     let combineIdentifier = CombineIdentifier()
///     // …
/// }
/// ```
public protocol CustomCombineIdentifierConvertible {
    /// A unique identifier for identifying publisher streams.
    ///
    /// ```swift
    /// print(subscriber.combineIdentifier)
    /// ```
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// The identifier of this object, derived from its identity.
    ///
    /// ```swift
    /// let id = subscription.combineIdentifier
    /// ```
    public var combineIdentifier: CombineIdentifier {
        CombineIdentifier(self)
    }
}

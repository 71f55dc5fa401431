/// A publisher that performs type erasure by wrapping another publisher.
///
/// Use it to expose a publisher across an API boundary without its concrete type.
///
/// The wrapped publisher receives each subscriber as an ``AnySubscriber`` (with the subscriber's identifier,
/// description and mirror), where Combine hands it the subscriber itself: so the operators on each side of
/// the boundary run specialised, and a value crosses it through one call. Only a `receive(subscriber:)`
/// that casts its subscriber to a concrete type sees the difference.
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    internal let box: AnyPublisherBox<Output, Failure>

    /// Creates a type-erasing publisher to wrap the provided publisher.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let already = publisher as? AnyPublisher<Output, Failure> {
            self = already
        } else {
            box = PublisherBox(publisher)
        }
    }

    /// Attaches the subscriber to the wrapped publisher, as an ``AnySubscriber`` (with its identifier,
    /// description and mirror) made here, where its type is known: see `PublisherBox`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.subscribeEntry(box, AnySubscriber(subscriber))
    }

    /// `"AnyPublisher"`, as Combine prints it.
    public var description: String { "AnyPublisher" }

    /// The same as ``description``, for playgrounds.
    public var playgroundDescription: Any { description }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

/// The box behind ``AnyPublisher``, made where the publisher's type is known, so its closure runs the
/// publisher's `receive(subscriber:)` specialised; the closure captures nothing (it takes the box as its
/// argument), so it allocates nothing, as ``SpecializedEntry``'s.
@usableFromInline
internal class AnyPublisherBox<Output, Failure: Error> {
    @usableFromInline let subscribeEntry: (AnyPublisherBox, AnySubscriber<Output, Failure>) -> Void
    @inlinable init(subscribeEntry: @escaping (AnyPublisherBox, AnySubscriber<Output, Failure>) -> Void) {
        self.subscribeEntry = subscribeEntry
    }
}

@usableFromInline
internal final class PublisherBox<Base: Publisher>: AnyPublisherBox<Base.Output, Base.Failure> {
    @usableFromInline let base: Base
    @inlinable init(_ base: Base) {
        self.base = base
        super.init { box, subscriber in
            unsafeDowncast(box, to: PublisherBox.self).base.receive(subscriber: subscriber)
        }
    }
}

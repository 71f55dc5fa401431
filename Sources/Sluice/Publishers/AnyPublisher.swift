/// A publisher that performs type erasure by wrapping another publisher.
///
/// Use it to expose a publisher across an API boundary without its concrete type.
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

    /// Attaches the subscriber to the wrapped publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.receive(subscriber: subscriber)
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

/// The abstract class behind ``AnyPublisher``; its generic method is dispatched virtually.
@usableFromInline
internal class AnyPublisherBox<Output, Failure: Error> {
    @inlinable init() {}
    @usableFromInline
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        fatalError("AnyPublisherBox is abstract")
    }
}

@usableFromInline
internal final class PublisherBox<Base: Publisher>: AnyPublisherBox<Base.Output, Base.Failure> {
    @usableFromInline let base: Base
    @inlinable init(_ base: Base) { self.base = base }
    @inlinable
    override func receive<S: Subscriber>(subscriber: S) where S.Input == Base.Output, S.Failure == Base.Failure {
        base.receive(subscriber: subscriber)
    }
}

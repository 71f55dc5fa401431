import Sluice

/// A relay that broadcasts each accepted value to its subscribers and keeps none (CombineExt's
/// `PassthroughRelay`): a `PassthroughSubject` that cannot complete.
///
/// A subscriber with no outstanding demand when a value is accepted misses it. Threads, demand and lifetime
/// are `PassthroughSubject`'s (it is one inside): ``accept(_:)`` may be called from any thread, and may wait
/// while a subscriber on another thread has a full hand-over queue. On deinit, subscribers receive `.finished`.
///
/// <!-- snippet: PassthroughRelayAccept -->
/// ```swift
/// let relay = PassthroughRelay<String>()
/// var received: [String] = []
/// let cancellable = relay.sink { received.append($0) }
/// relay.accept("a")
/// let forwarding = ["b", "c"].publisher.subscribe(relay)   // its finish is not forwarded
/// relay.accept("d")                                        // received == ["a", "b", "c", "d"]
/// ```
public final class PassthroughRelay<Output>: Relay, CustomStringConvertible {
    public typealias Failure = Never

    @usableFromInline let subject = PassthroughSubject<Output, Never>()

    /// Creates a relay with no subscribers.
    public init() {}

    deinit { subject.send(completion: .finished) }

    /// Sends `value` to every subscriber that has demand for it.
    @inlinable
    public func accept(_ value: Output) {
        subject.send(value)
    }

    /// See ``Relay/subscribe(_:)``.
    public func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable
    where P.Output == Output, P.Failure == Never {
        publisher.forwardValues(to: subject)
    }

    /// Adds a subscriber; it receives the values accepted from then on, within its demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// `"PassthroughRelay"`.
    public var description: String { "PassthroughRelay" }
}

extension PassthroughRelay: Sendable where Output: Sendable {}

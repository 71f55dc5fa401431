import Sluice

/// A relay that holds a current value and broadcasts each accepted one (CombineExt's
/// `CurrentValueRelay`): a `CurrentValueSubject` that cannot complete.
///
/// Each subscriber receives the current value with its first demand, then every later value it has demand
/// for; a subscriber that had no demand when a value was accepted receives the value current at its next
/// request, as with Combine's `CurrentValueSubject`. Threads and lifetime as ``PassthroughRelay``.
///
/// <!-- snippet: CurrentValueRelayValue -->
/// ```swift
/// let relay = CurrentValueRelay(1)
/// var received: [Int] = []
/// let cancellable = relay.sink { received.append($0) }   // 1, at once
/// relay.accept(2)                                        // received == [1, 2]
/// #expect(relay.value == 2)
/// ```
public final class CurrentValueRelay<Output>: Relay, CustomStringConvertible {
    public typealias Failure = Never

    @usableFromInline let subject: CurrentValueSubject<Output, Never>

    /// Creates a relay whose current value is `value`.
    public init(_ value: Output) {
        subject = CurrentValueSubject(value)
    }

    deinit { subject.send(completion: .finished) }

    /// The current value: the initial one, or the last one accepted.
    @inlinable public var value: Output { subject.value }

    /// Makes `value` the current value and sends it to every subscriber with demand for it.
    @inlinable
    public func accept(_ value: Output) {
        subject.send(value)
    }

    /// See ``Relay/subscribe(_:)``; each value forwarded becomes the current value.
    public func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable
    where P.Output == Output, P.Failure == Never {
        publisher.forwardValues(to: subject)
    }

    /// Adds a subscriber; it receives the current value with its first demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// `"CurrentValueRelay"`.
    public var description: String { "CurrentValueRelay" }
}

extension CurrentValueRelay: Sendable where Output: Sendable {}

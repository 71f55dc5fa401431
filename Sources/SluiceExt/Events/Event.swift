import Sluice

/// One signal of a publisher as a value: what `materialize()` publishes and `dematerialize()` turns back.
public enum Event<Output, Failure: Error> {
    /// A value.
    case value(Output)
    /// The failure that ended the stream.
    case failure(Failure)
    /// The stream finished.
    case finished
}

extension Event: Equatable where Output: Equatable, Failure: Equatable {}
extension Event: Hashable where Output: Hashable, Failure: Hashable {}
extension Event: Sendable where Output: Sendable, Failure: Sendable {}

extension Event: CustomStringConvertible {
    /// `value(…)`, `failure(…)` or `finished`.
    public var description: String {
        switch self {
        case .value(let value): "value(\(value))"
        case .failure(let failure): "failure(\(failure))"
        case .finished: "finished"
        }
    }
}

/// A type that stands for an ``Event``: what `dematerialize()`, `values()` and `failures()` accept as elements.
public protocol EventConvertible<Output, Failure> {
    /// The values of the event's stream.
    associatedtype Output
    /// The failure of the event's stream.
    associatedtype Failure: Error
    /// The event this value stands for.
    var event: Event<Output, Failure> { get }
}

extension Event: EventConvertible {
    /// The event itself.
    public var event: Event<Output, Failure> { self }
}

extension Publisher where Output: EventConvertible, Failure == Never {
    /// The values of a materialized publisher's events, dropping its failure and finish events (this publisher
    /// still finishes when its upstream does). Demand: a dropped event is replaced by one more requested upstream.
    @inlinable
    public func values() -> AnyPublisher<Output.Output, Never> {
        compactMap({ element -> Output.Output? in
            if case .value(let value) = element.event { return value }
            return nil
        }, isolation: nil)
        .eraseToAnyPublisher()
    }

    /// The failure of a materialized publisher, as a value (at most one, in a well-formed stream of events),
    /// dropping its value and finish events. Demand as `values()`.
    @inlinable
    public func failures() -> AnyPublisher<Output.Failure, Never> {
        compactMap({ element -> Output.Failure? in
            if case .failure(let failure) = element.event { return failure }
            return nil
        }, isolation: nil)
        .eraseToAnyPublisher()
    }
}

import Sluice

/// A publisher that outside code feeds with values and that never fails or finishes while it lives
/// (CombineExt's `Relay`): a subject without `send(completion:)`.
///
/// Sluice's relays (``PassthroughRelay``, ``CurrentValueRelay``) keep a subject's contract: each subscriber
/// receives values within its own demand, one at a time, also when many threads call ``accept(_:)`` at once;
/// a cancelled subscriber is released. When a relay is deinitialized, its subscribers receive `.finished`.
public protocol Relay<Output>: Publisher where Failure == Never {
    /// Sends `value` to every subscriber with demand for it.
    func accept(_ value: Output)

    /// Forwards every value of `publisher` to this relay until the returned cancellable is cancelled; the
    /// publisher's completion is not forwarded (the relay goes on). The publisher is asked for `.unlimited`
    /// demand at once. The relay is held weakly: once it is deinitialized, the values go nowhere.
    func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Output == Output, P.Failure == Never
}

extension Relay where Output == Void {
    /// Sends `()` to every subscriber with demand for it.
    public func accept() {
        accept(())
    }
}

extension Publisher where Failure == Never {
    /// Forwards every value of this publisher to `relay`; see ``Relay/subscribe(_:)``.
    public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
        relay.subscribe(self)
    }
}

extension Publisher where Failure == Never {
    /// The relays' ``Relay/subscribe(_:)``: every value to `subject`, held weakly, and the completion to nobody.
    func forwardValues<S: Subject>(to subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Never {
        sink(receiveValue: { [weak subject] value in subject?.send(value) }, isolation: nil)
    }
}

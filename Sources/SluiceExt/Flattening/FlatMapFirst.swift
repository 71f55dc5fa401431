import Sluice
import Synchronization

extension Publisher {
    /// Maps a value to a publisher and delivers its values, ignoring the values that arrive while that
    /// publisher is still running (CombineExt's `flatMapFirst`): the opposite of `flatMapLatest`.
    ///
    /// A value starts a new inner publisher only once the previous one has finished (or was cancelled); each
    /// subscription keeps its own "running" mark (CombineExt's is shared by every subscription). The mark is
    /// set as the value is let through, so an inner publisher that subscribes late still blocks the next value.
    ///
    /// Demand, threads, endings and where `transform` runs are `flatMap`'s: the upstream is asked for
    /// `.unlimited` (ignored values are dropped, not held back).
    ///
    /// <!-- snippet: FlatMapFirstIgnores -->
    /// ```swift
    /// let taps = PassthroughSubject<Int, Never>()
    /// let request = PassthroughSubject<String, Never>()
    /// let recorder = RecordingSubscriber<String, Never>()
    /// taps.flatMapFirst { tap in request.prefix(1).map { "\(tap): \($0)" } }.subscribe(recorder)
    /// taps.send(1)
    /// taps.send(2)            // ignored: the request for tap 1 is still running
    /// request.send("done")
    /// taps.send(3)            // starts a new request
    /// request.send("again")
    /// #expect(recorder.values == ["1: done", "3: again"])
    /// ```
    public func flatMapFirst<P: Publisher>(
        _ transform: @escaping (Output) -> P, isolation: (any Actor)? = #isolation
    ) -> Deferred<Publishers.FlatMap<Publishers.HandleEvents<P>, Publishers.Filter<Self>>>
    where P.Failure == Failure {
        Deferred {
            let mark = RunningMark()
            return self
                .filter({ _ in mark.claim() }, isolation: nil)
                .flatMap({ value in
                    transform(value).handleEvents(
                        receiveCompletion: { _ in mark.clear() }, receiveCancel: mark.clear, isolation: nil)
                }, isolation: isolation)
        }
    }
}

/// `flatMapFirst`'s "running" mark for one subscription: set by the value let through, cleared when its inner ends.
final class RunningMark: Sendable {
    let running = Atomic<Bool>(false)

    /// `true` if the mark was clear, so that the value may start an inner publisher.
    func claim() -> Bool {
        running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    func clear() {
        running.store(false, ordering: .releasing)
    }
}

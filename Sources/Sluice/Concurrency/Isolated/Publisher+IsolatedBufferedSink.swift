extension Publisher where Output: Sendable {
    /// Attaches a subscriber whose closures run isolated to `actor` (the caller's actor by default), with
    /// `.unlimited` demand and the values the actor has not processed yet kept as `bufferingPolicy` says.
    ///
    /// It requests `.unlimited` once, so a hot publisher (a subject, UI events) never has values dropped for
    /// lack of demand; the policy decides what waits while `receiveValue` is busy: `.unbounded` keeps
    /// everything, `.bufferingOldest(n)` the first `n`, `.bufferingNewest(n)` the last `n` (a value that finds
    /// the actor waiting is handed straight to it, uncounted). The completion comes after every value kept.
    ///
    /// Cancelling the returned ``AnyCancellable`` (or deinitialising it) cancels the subscription, drops what
    /// is kept and ends the loop, which releases the closures and the subscriber, as does the completion once
    /// delivered. Cancelled on `actor`, nothing reaches the closures afterwards; cancelled from another
    /// thread, at most the value the actor was already taking still does. A negative limit traps.
    ///
    /// For end-to-end back-pressure (one value requested at a time), use
    /// ``sink(isolation:receiveCompletion:receiveValue:)``.
    ///
    /// <!-- snippet: IsolatedBufferedSinkProgress -->
    /// ```swift
    /// @MainActor func bind(_ bar: ProgressBar) {
    ///     cancellable = progress.sink(isolation: MainActor.shared,
    ///                                 bufferingPolicy: .bufferingNewest(1),
    ///                                 receiveCompletion: { _ in bar.isHidden = true },
    ///                                 receiveValue: { bar.value = $0 })
    /// }
    /// ```
    @inlinable
    public func sink(
        isolation actor: isolated (any Actor)? = #isolation,
        bufferingPolicy: ValuesBufferingPolicy,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        bufferingPolicy.checkLimit(in: "sink(isolation:bufferingPolicy:)")
        return isolatedSink(isolation: actor, mode: .buffering(bufferingPolicy),
                            receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    }
}

extension Publisher where Output: Sendable, Failure == Never {
    /// Attaches a subscriber whose `receiveValue` runs isolated to `actor`, with `.unlimited`
    /// demand and unprocessed values kept as `bufferingPolicy` says; see
    /// ``Publisher/sink(isolation:bufferingPolicy:receiveCompletion:receiveValue:)``.
    @inlinable
    public func sink(
        isolation actor: isolated (any Actor)? = #isolation,
        bufferingPolicy: ValuesBufferingPolicy,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        sink(isolation: actor, bufferingPolicy: bufferingPolicy, receiveCompletion: { _ in },
             receiveValue: receiveValue)
    }
}

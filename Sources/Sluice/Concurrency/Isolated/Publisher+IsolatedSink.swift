extension Publisher where Output: Sendable {
    /// Attaches a subscriber whose closures run isolated to `actor` (the caller's actor by
    /// default, e.g. the main actor in UI code), with back-pressure kept end to end.
    ///
    /// One value is requested at a time, the next only after `receiveValue` has returned on the actor, so a
    /// slow actor slows the publisher instead of queueing work. Cancelling the returned ``AnyCancellable``
    /// (or deinitialising it) cancels the subscription and stops the delivery loop. Cancelled on `actor`,
    /// nothing reaches the closures afterwards, not even a value or completion that had already woken the
    /// loop; cancelled from another thread, at most the signal the actor was already taking still does.
    ///
    /// <!-- snippet: IsolatedSinkTitle -->
    /// ```swift
    /// @MainActor func bind(_ label: Label) {
    ///     cancellable = model.$title.sink(isolation: MainActor.shared,
    ///                                     receiveCompletion: { _ in },
    ///                                     receiveValue: { label.text = $0 })
    /// }
    /// ```
    @inlinable
    public func sink(
        isolation actor: isolated (any Actor)?,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        isolatedSink(isolation: actor, mode: .onDemand, receiveCompletion: receiveCompletion,
                     receiveValue: receiveValue)
    }
}

extension Publisher where Output: Sendable, Failure == Never {
    /// Attaches a subscriber whose `receiveValue` runs isolated to `actor`, one value at a
    /// time; see ``Publisher/sink(isolation:receiveCompletion:receiveValue:)``.
    @inlinable
    public func sink(
        isolation actor: isolated (any Actor)?,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        sink(isolation: actor, receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

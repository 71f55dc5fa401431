extension Future where Failure == Never, Output: Sendable {
    /// The published value, awaited asynchronously.
    ///
    /// Waits for the future's result: its work started when it was created and is not cancellable, so, as in
    /// Combine, cancelling the awaiting task does not end the wait (the type is `Output`: there is no `nil` or
    /// error to end it with), and a promise never fulfilled keeps it waiting. To stop waiting on cancellation,
    /// use ``Publisher/firstValue(isolation:)``, which returns `nil` then. A future already fulfilled returns
    /// its value at once, without subscribing.
    @inlinable
    public var value: Output {
        get async {
            if case .success(let value)? = storage.result { return value }
            switch await ValueAwaiter.outcome(of: self, mode: .first, cancellable: false, isolation: nil) {
            case .value(let value?): return value
            case .value(nil), .moreThanOne, .cancelled: Violation.futureFinishedWithoutValue()
            }
        }
    }
}

extension Future where Output: Sendable {
    /// The published value, awaited asynchronously; throws the future's failure, or `CancellationError` if
    /// the awaiting task is cancelled first (the subscription is then cancelled). A future already fulfilled
    /// returns (or throws) its result at once, without subscribing, unless the awaiting task is cancelled.
    ///
    /// The getter keeps Combine's untyped `throws`: a `CancellationError` does not fit a typed `Failure`. For
    /// typed throws, await ``Publisher/firstValue(isolation:)``, which returns `nil` when cancelled.
    @inlinable
    public var value: Output {
        get async throws {
            // As through a subscription: a cancel that came first wins over a kept result.
            if let result = storage.result, !Task.isCancelled { return try result.get() }
            switch await ValueAwaiter.outcome(of: self, mode: .first, isolation: nil) {
            case .value(let value?): return value
            case .failure(let error): throw error
            case .cancelled: throw CancellationError()
            case .value(nil), .moreThanOne: Violation.futureFinishedWithoutValue()
            }
        }
    }
}

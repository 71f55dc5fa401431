import Sluice

extension Publisher {
    /// Republishes values until `duration` has passed on `scheduler` since the subscription, then finishes and
    /// cancels the upstream (CombineExt's `prefix(duration:)`).
    ///
    /// The clock starts when the subscriber subscribes: a `Just(())` delayed by `duration` ends the stream
    /// through `prefix(untilOutputFrom:)`, so demand passes through unchanged, an upstream completion before
    /// the time ends the stream as usual, and the finish when the time is up comes on the scheduler.
    /// `tolerance` is how late the end may come (the scheduler's `minimumTolerance` when `nil`).
    public func prefix<S: Scheduler>(
        duration: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, on scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> AnyPublisher<Output, Failure> {
        prefix(
            untilOutputFrom: Just(()).delay(for: duration, tolerance: tolerance, scheduler: scheduler, options: options)
        )
        .eraseToAnyPublisher()
    }
}

import Sluice

/// How long `retry(_:backoff:scheduler:options:isolation:if:)` waits before each new attempt:
/// a delay that grows by `multiplier` with each failure, up to `maximum`, less a random part of
/// up to `jitter` of it (so that many clients failing together do not retry together).
///
/// <!-- snippet: RetryBackoffExponential -->
/// ```swift
/// // Waits 1 s, 2 s, 4 s, 8 s, then 10 s (the cap) between attempts, each less up to 25 %.
/// let backoff = RetryBackoff.exponential(initial: .seconds(1), maximum: .seconds(10), jitter: 0.25)
/// #expect(backoff.delay(after: 3, random: 0) == .seconds(4))
/// #expect(backoff.delay(after: 3, random: 1) == .seconds(3))
/// #expect(backoff.delay(after: 9, random: 0) == .seconds(10))
/// ```
public struct RetryBackoff: Sendable, Equatable {
    /// The delay before the first retry.
    public let initial: Duration
    /// The factor each further failure multiplies the delay by.
    public let multiplier: Double
    /// The longest delay; `nil`: no cap.
    public let maximum: Duration?
    /// The largest fraction of a delay taken off at random, in `0...1`.
    public let jitter: Double

    /// A delay of `initial`, multiplied by `multiplier` after each failure, capped at `maximum`, less a random
    /// fraction of up to `jitter`. Traps if `initial` is negative, `multiplier` is below 1 or `jitter` is
    /// outside `0...1`.
    public static func exponential(
        initial: Duration, multiplier: Double = 2, maximum: Duration? = nil, jitter: Double = 0
    ) -> RetryBackoff {
        RetryBackoff(initial: initial, multiplier: multiplier, maximum: maximum, jitter: jitter)
    }

    /// The same delay before every retry.
    public static func constant(_ delay: Duration) -> RetryBackoff {
        RetryBackoff(initial: delay, multiplier: 1, maximum: nil, jitter: 0)
    }

    /// No delay: each retry subscribes at once, as Combine's `retry(_:)` does.
    public static let immediate = RetryBackoff.constant(.zero)

    private init(initial: Duration, multiplier: Double, maximum: Duration?, jitter: Double) {
        precondition(initial >= .zero, "RetryBackoff: the initial delay must not be negative, got \(initial)")
        precondition(multiplier >= 1, "RetryBackoff: the multiplier must be at least 1, got \(multiplier)")
        precondition((0...1).contains(jitter), "RetryBackoff: jitter must be in 0...1, got \(jitter)")
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The delay before the retry that follows failure number `failures` (1 for the first), with `random`
    /// in `0...1` choosing how much of the jitter is taken off (`0`: none).
    public func delay(after failures: Int, random: Double) -> Duration {
        // In seconds, where a long run of failures saturates instead of overflowing `Duration`.
        var seconds = initial.seconds * Double.pow(multiplier, failures - 1)
        if let maximum { seconds = min(seconds, maximum.seconds) }
        return .seconds(min(seconds, Duration.longestDelay) * (1 - jitter * random))
    }
}

extension Duration {
    /// The longest delay in seconds (about 31 years), far below where a nanosecond stride would overflow.
    fileprivate static let longestDelay = 1e9

    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    fileprivate var nanoseconds: Int {
        Int(components.seconds) * 1_000_000_000 + Int(components.attoseconds / 1_000_000_000)
    }
}

extension Double {
    /// `base` to a non-negative integer power, saturating at infinity.
    fileprivate static func pow(_ base: Double, _ exponent: Int) -> Double {
        (0..<max(exponent, 0)).reduce(1) { power, _ in power.isInfinite ? power : power * base }
    }
}

extension Publisher {
    /// Resubscribes to this publisher after each failure, up to `retries` times, waiting on `scheduler` as
    /// `backoff` says before each new attempt, and only for the failures `shouldRetry` accepts (Sluice's
    /// addition: neither Combine nor CombineExt has back-off with a cap and jitter on any scheduler).
    ///
    /// The failure that is not retried (`retries` used up, or `shouldRetry` said no) fails the stream. The
    /// values of every attempt reach the downstream; its demand carries over to each new attempt. A cancel
    /// during a wait cancels the timer: no attempt follows. The count of failures belongs to the subscription
    /// and does not reset when an attempt delivers values. `shouldRetry` runs where the failure arrives, or
    /// on `isolation` when written in actor-isolated code. Built on ``Sluice/Publisher/retryWhen(_:)``.
    ///
    /// <!-- snippet: RetryWithBackoff -->
    /// ```swift
    /// let scheduler = VirtualTimeScheduler()
    /// let recorder = RecordingSubscriber<Int, Oops>()
    /// flaky.retry(2, backoff: .exponential(initial: .seconds(1)), scheduler: scheduler).subscribe(recorder)
    /// #expect(flaky.subscriptionCount == 1)   // failed at once
    /// scheduler.advance(by: .seconds(1))
    /// #expect(flaky.subscriptionCount == 2)   // failed again: the next wait is 2 s
    /// scheduler.advance(by: .seconds(2))
    /// #expect(flaky.subscriptionCount == 3)
    /// #expect(recorder.completion == .failure(Oops()))   // no retry left
    /// ```
    public func retry<S: Scheduler>(
        _ retries: Int, backoff: RetryBackoff, scheduler: S, options: S.SchedulerOptions? = nil,
        isolation: (any Actor)? = #isolation, if shouldRetry: @escaping (Failure) -> Bool = { _ in true }
    ) -> AnyPublisher<Output, Failure> {
        precondition(retries >= 0, "retry(_:backoff:scheduler:): retries must not be negative, got \(retries)")
        return retrying(
            attempts: retries + 1,
            scheduler: scheduler,
            options: options,
            isolation: isolation,
            shouldRetry: shouldRetry
        ) { failures in
            .nanoseconds(
                backoff.delay(
                    after: failures,
                    random: backoff.jitter == 0 ? 0 : Double.random(in: 0...1)
                ).nanoseconds
            )
        }
    }

    /// Resubscribes after each failure as `behavior` says (CombineExt's `retry(_:scheduler:shouldRetry:)`):
    /// `maxCount` is the number of attempts in all, the first included; delays are waited for on `scheduler`.
    /// `shouldRetry`, when given, can refuse a failure, which then fails the stream. Demand, cancel and
    /// threads as ``Sluice/Publisher/retry(_:backoff:scheduler:options:isolation:if:)``.
    public func retry<Context: Scheduler>(
        _ behavior: RepeatBehavior<Context>, scheduler: Context, shouldRetry: RetryPredicate? = nil
    ) -> AnyPublisher<Output, Failure> {
        retrying(
            attempts: Int(clamping: behavior.maxCount), scheduler: scheduler, options: nil, isolation: nil,
            shouldRetry: { shouldRetry?($0) ?? true }, delay: behavior.delay(after:))
    }

    /// `retryWhen` with a trigger that, for each numbered failure, fails with it or fires after `delay(failures)`.
    private func retrying<S: Scheduler>(
        attempts: Int, scheduler: S, options: S.SchedulerOptions?, isolation: (any Actor)?,
        shouldRetry: @escaping (Failure) -> Bool, delay: @escaping (Int) -> S.SchedulerTimeType.Stride
    ) -> AnyPublisher<Output, Failure> {
        // No `maxPublishers`: the next failure can come before the delay that fired the retry has finished,
        // and `failures` drops a value nobody has demand for.
        retryWhen { failures in
            failures.enumerated(initial: 1).setFailureType(to: Failure.self).flatMap({ failures, failure in
                guard failures < attempts, shouldRetry(failure) else {
                    return Fail<Void, Failure>(error: failure).eraseToAnyPublisher()
                }
                let wait = delay(failures)
                let fire = Just(()).setFailureType(to: Failure.self)
                guard wait > .zero else { return fire.eraseToAnyPublisher() }
                return fire.delay(for: wait, scheduler: scheduler, options: options).eraseToAnyPublisher()
            }, isolation: isolation)
        }.eraseToAnyPublisher()
    }
}

/// Whether CombineExt's `retry(_:scheduler:shouldRetry:)` retries a failure.
public typealias RetryPredicate = (any Error) -> Bool

/// How CombineExt's `retry(_:scheduler:shouldRetry:)` retries (CombineExt's `RepeatBehavior`, from RxSwiftExt):
/// each case's `maxCount` is the number of attempts in all, the first included; times are in seconds.
public enum RepeatBehavior<Context: Scheduler> {
    /// Retry at once.
    case immediate(maxCount: UInt)
    /// Wait `time` seconds before each retry.
    case delayed(maxCount: UInt, time: Double)
    /// Wait `initial` seconds before the first retry, then `initial × (1 + multiplier)^(n − 1)`
    /// before the retry after failure `n` (a multiplier of 0.5 adds 50 % each time).
    case exponentialDelayed(maxCount: UInt, initial: Double, multiplier: Double)
    /// Wait what `delayCalculator` returns for the failure's number (1 for the first).
    case customTimerDelayed(maxCount: UInt, delayCalculator: (UInt) -> Context.SchedulerTimeType.Stride)

    var maxCount: UInt {
        switch self {
        case .immediate(let count), .delayed(let count, _), .exponentialDelayed(let count, _, _),
            .customTimerDelayed(let count, _):
            count
        }
    }

    func delay(after failures: Int) -> Context.SchedulerTimeType.Stride {
        switch self {
        case .immediate:
            .zero
        case .delayed(_, let time):
            .milliseconds(Int(time * 1000))
        case .exponentialDelayed(_, let initial, let multiplier):
            .milliseconds(
                Int(min(initial * Double.pow(1 + multiplier, failures - 1), Duration.longestDelay) * 1000)
            )
        case .customTimerDelayed(_, let delayCalculator):
            delayCalculator(UInt(failures))
        }
    }
}

/// The misuse traps of Sluice's API (design rule 7): misuse is a programming error, so they stop the process,
/// as Combine does. Each message starts with "Sluice API violation" and names the rule (exit tests match it).
@usableFromInline
package enum Violation {
    /// Rule 2: demand is a count, never negative.
    @usableFromInline @inline(never)
    static func negativeDemand(_ value: Int, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: demand must not be negative (rule 2), got max(\(value))",
                   file: file, line: line)
    }

    /// Rule 2 in Combine's form: `request(_:)` takes a positive demand (`.max(0)` is `.none`: the message
    /// names both). Which subscriptions trap on it, as Combine's do, is listed with the tests (MisuseTraps).
    @usableFromInline @inline(never)
    package static func zeroDemandRequested(file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: request(.max(0)) (also written .none) — demand requested must be greater "
                   + "than zero (rule 2)",
                   file: file, line: line)
    }

    /// Rule 2: a publisher delivered more values than its subscriber requested.
    @usableFromInline @inline(never)
    static func valueBeyondDemand(_ subscriber: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: \(subscriber) received a value beyond the demand it requested (rule 2)",
                   file: file, line: line)
    }

    /// Rule 1: nothing reaches a subscriber before its subscription.
    @usableFromInline @inline(never)
    static func signalBeforeSubscription(
        _ subscriber: String,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Never {
        fatalError("Sluice API violation: \(subscriber) received a signal before its subscription (rule 1)",
                   file: file, line: line)
    }

    /// Rule 1: an operator's subscription was asked for demand before the operator had its own upstream
    /// subscription (where Combine's operator traps on it too).
    @usableFromInline @inline(never)
    static func requestBeforeSubscription(
        _ subscription: String,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Never {
        fatalError("Sluice API violation: \(subscription) was asked for demand before it received its upstream "
                   + "subscription (rule 1)",
                   file: file, line: line)
    }

    /// Rule 4: nothing follows a completion.
    @usableFromInline @inline(never)
    static func signalAfterCompletion(_ subscriber: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: \(subscriber) received a signal after its completion (rule 4)",
                   file: file, line: line)
    }
}

extension Violation {
    /// Rule 4 for `Record.Recording`: nothing is recorded after the completion.
    @usableFromInline @inline(never)
    static func recordingAfterCompletion(file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: Record.Recording received a signal after its completion; nothing follows "
                   + "a completion (rule 4)",
                   file: file, line: line)
    }
}

extension Violation {
    /// Rule 1 of `Future`: one value or a failure; finishing without a value leaves `Future.value` nothing.
    @usableFromInline @inline(never)
    static func futureFinishedWithoutValue(file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: a Future finished without a value; a Future delivers one value or a "
                   + "failure (rule 1 of Future)",
                   file: file, line: line)
    }
}

extension Violation {
    /// Rule 2 for `values(prefetch:)`: the count is the demand requested ahead, so positive.
    @usableFromInline @inline(never)
    static func nonPositivePrefetch(_ count: Int, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: values(prefetch:) takes a positive count, the demand it requests ahead "
                   + "(rule 2), got \(count)",
                   file: file, line: line)
    }

    /// Rule 2 for `asyncMap(maxConcurrent:_:)` and `asyncMapUnordered(maxConcurrent:_:)`: the bound is the
    /// most demand they request from their upstream, so positive.
    @usableFromInline @inline(never)
    static func nonPositiveConcurrency(_ count: Int, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: asyncMap takes a positive maxConcurrent, the most values it asks its "
                   + "upstream for at once (rule 2), got \(count)",
                   file: file, line: line)
    }

    /// Rule 2 for a buffering policy (`values(bufferingPolicy:)`, `sink(isolation:bufferingPolicy:)`): a
    /// buffer's limit is a count, never negative. `api` names the call.
    @usableFromInline @inline(never)
    static func negativeBufferingLimit(
        _ limit: Int,
        in api: String,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Never {
        fatalError("Sluice API violation: a \(api) limit must not be negative (rule 2), got \(limit)",
                   file: file, line: line)
    }
}

extension Violation {
    /// An operator's count (`dropFirst`, `prefix`, `output(in:)`) is never negative, as Combine's
    /// preconditions say. `api` names the call.
    @usableFromInline @inline(never)
    static func negativeCount(_ count: Int, in api: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: \(api) takes a count that is not negative, got \(count)",
                   file: file, line: line)
    }

    /// Rule 7: `buffer(…, whenFull: .customError)`'s closure made the upstream send the buffer an element
    /// (on the closure's thread), where Combine's buffer deadlocks and traps.
    @usableFromInline @inline(never)
    static func signalInsideCustomError(file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: buffer(size:prefetch:whenFull: .customError) received an element from "
                   + "inside its customError closure (rule 7)",
                   file: file, line: line)
    }

    /// `Optional.Publisher.output(in:)` takes a range whose half-open upper bound is below `Int.max - 1`, as
    /// Combine's precondition says (the general `output(in:)` has no such bound).
    @usableFromInline @inline(never)
    static func outputRangeTooLarge(_ upperBound: Int, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: Optional.Publisher.output(in:) takes a range that ends below "
                   + "Int.max - 1, got an upper bound of \(upperBound)",
                   file: file, line: line)
    }
}

extension Violation {
    /// `assertNoFailure`: the upstream failed although the caller asserted it never would.
    @usableFromInline @inline(never)
    static func unexpectedFailure(_ error: any Error, prefix: String, file: StaticString, line: UInt) -> Never {
        fatalError("\(prefix.isEmpty ? "" : "\(prefix) ")assertNoFailure: unexpected failure: \(error)",
                   file: file, line: line)
    }
}

extension Violation {
    /// `multicast(_:)`: the subject-making closure subscribed to or connected its own multicast, which has no
    /// subject until the closure returns.
    @usableFromInline @inline(never)
    static func multicastSubjectReentered(file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: multicast's createSubject closure subscribed to or connected its own "
                   + "multicast, which has no subject until the closure returns",
                   file: file, line: line)
    }
}

extension Violation {
    /// Rule 2 for `buffer(size:prefetch: .keepFull, whenFull:)`: the size is the demand asked of the upstream
    /// at subscription, so not negative (Combine traps there too).
    @usableFromInline @inline(never)
    static func negativeBufferSize(_ size: Int, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: buffer(size:prefetch: .keepFull) asks its upstream for size elements, "
                   + "and demand must not be negative (rule 2), got size \(size)",
                   file: file, line: line)
    }

    /// Rule 2 for `collect(.byTimeOrCount(_:_:count))`: each array asks the upstream for `count` elements,
    /// so it is not negative (Combine traps there too).
    @usableFromInline @inline(never)
    static func negativeGroupCount(_ count: Int, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: collect(.byTimeOrCount) asks its upstream for count elements per array, "
                   + "and demand must not be negative (rule 2), got count \(count)",
                   file: file, line: line)
    }
}

extension Violation {
    /// `op`'s timer (`timeout`'s) ran inside the `schedule(after:interval:tolerance:options:)` call that
    /// started it (an immediate scheduler), where Combine's deadlocks on its own lock and crashes.
    @usableFromInline @inline(never)
    static func timerRanInsideSchedule(_ op: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: \(op)'s timer ran inside the scheduler call that scheduled it; \(op) "
                   + "needs a scheduler that runs actions later, not an immediate one "
                   + "(rule 7: Combine traps here too)",
                   file: file, line: line)
    }
}

extension Violation {
    /// `subscribe(on:)`: a request of the downstream's ran inside the upstream's `request(_:)` that the
    /// subscription was making on the same thread (a scheduler that runs actions at once), where Combine's
    /// holds its lock across that call and crashes.
    @usableFromInline @inline(never)
    static func subscribeOnReentered(file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("Sluice API violation: subscribe(on:) was asked for more from inside its upstream's "
                   + "request(_:), on a scheduler that runs actions at once (rule 7: Combine traps here too); "
                   + "use a scheduler that runs actions later",
                   file: file, line: line)
    }
}

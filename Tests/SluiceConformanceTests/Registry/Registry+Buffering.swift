import Sluice
import SluiceTesting

/// The buffering and collecting operators in the registry: `buffer(size:prefetch:whenFull:)`
/// in both prefetch strategies, and `collect(_:options:)` by time.
extension Registry {
    /// Both prefetch ahead of demand (`keepFull` up to `size`, `byRequest` everything, as in
    /// Combine), so each is checked only over the upstreams that do not fail: a failure
    /// overtakes the values prefetched without demand (by design, as in Combine). Over the
    /// others a buffer never overflows (`keepFull` asks for no more than it holds; `byRequest`
    /// holds up to `.max`), so values and ending pass through unchanged, whichever `whenFull`.
    static let bufferingTransforms: [(name: String, transform: Transform, overFailing: Bool)] = [
        ("buffer(2, keepFull, dropOldest)", { $0.buffer(size: 2, prefetch: .keepFull, whenFull: .dropOldest) }, false),
        ("buffer(.max, byRequest, customError)",
         { $0.buffer(size: .max, prefetch: .byRequest, whenFull: .customError { TestFailure() }) }, false),
    ]

    /// The collecting operators, on an `ImmediateTestScheduler`, which runs each scheduled
    /// delivery at once (its repeating timer runs once, at subscription, with nothing
    /// collected): by count 1, each value is an array of its own, sent at once; by time, all
    /// values go out as one array when the upstream finishes.
    static let collectingTransforms: [(name: String, transform: Transform, expect: Expectation?)] = [
        ("collect(.byTimeOrCount(immediate, 1s, 1))",
         { $0.collect(.byTimeOrCount(ImmediateTestScheduler(), .seconds(1), 1)).map { $0[0] } }, nil),
        ("collect(.byTime(immediate, 1s)).map(count)",
         { $0.collect(.byTime(ImmediateTestScheduler(), .seconds(1))).map(\.count) },
         { values, ending in (ending == .finished && !values.isEmpty ? [values.count] : [], ending) }),
    ]

    /// Their subscriptions accept `request(.none)` and add nothing, as Combine's buffer does,
    /// whatever the upstream would do with it.
    static let bufferingAcceptingZeroDemand = Set(bufferingTransforms.map(\.name) + collectingTransforms.map(\.name))

    static let buffering: [Entry] = operatorUpstreams.flatMap { upstreamName -> [Entry] in
        let upstream = (core + subjects + bridge).first { $0.name == upstreamName }!
        let buffers = bufferingTransforms.compactMap { name, transform, overFailing in
            upstream.ending == .failure && !overFailing ? nil : operatorEntry(name, transform, over: upstream)
        }
        return buffers + collectingTransforms.map { name, transform, expect in
            operatorEntry(name, transform, over: upstream, expect: expect)
        }
    }
}

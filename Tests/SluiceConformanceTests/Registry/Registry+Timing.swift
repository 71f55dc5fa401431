import Dispatch
import Sluice
import SluiceTesting

/// The timing operators in the registry, each on a scheduler that keeps its output checkable:
///
/// - an `ImmediateTestScheduler`, which runs each action at once (moving its clock to the
///   action's time): `delay`, `debounce` and `throttle` then deliver inside the upstream's
///   call, so they are checked as synchronous (or hot) publishers;
/// - a real serial `DispatchQueue`, which makes delivery asynchronous: `delay` by zero, and
///   `timeout` with an interval no test reaches (an immediate scheduler would trap at
///   once), checked over upstreams that trap on `request(.none)` as the queue's entries must
///   (rules wait for their values, and a zero request goes to the upstream);
/// - the clock of an `ImmediateTestScheduler` that nothing moves, for `measureInterval`, whose
///   intervals are then all zero;
/// - a real serial `DispatchQueue` for `timeout` with a 1 ms interval, over an upstream that
///   sends nothing: its timer runs at once, but later, on the queue (an immediate scheduler
///   would run it inside the call that schedules it, where `timeout` traps, as Combine's
///   does), so the rules check a timeout's ending (and a cancel racing it) where the other
///   queue entries never reach it.
///
/// `debounce` and `throttle` ask their upstream for `.unlimited` and drop what a subscriber
/// has no demand for, as Combine's do, so (like the sharing operators) they are checked over
/// the hot upstreams, whose pump sends the next value only once the last one was delivered;
/// `debounce`'s subscription traps on `request(.none)`, `throttle`'s ignores it.
extension Registry {
    static let timing: [Entry] = timingPassThrough + timingOnQueue + timingDropping + timingTimeouts

    /// Over the usual operator upstreams, delivering at once.
    static let timingPassThrough: [Entry] = operatorUpstreams.flatMap { (upstreamName: String) -> [Entry] in
        let upstream = (core + subjects + bridge).first { $0.name == upstreamName }!
        return [
            operatorEntry("delay(for: 1, scheduler: ImmediateTestScheduler())", { $0.delay(for: .seconds(1), scheduler: ImmediateTestScheduler()) }, over: upstream),
            operatorEntry(
                "measureInterval(using: ImmediateTestScheduler()).map(\\.magnitude)",
                { $0.measureInterval(using: ImmediateTestScheduler()).map(\.magnitude) }, over: upstream,
                expect: { values, ending in (values.map { _ in 0 }, ending) }),
        ]
    }

    /// Upstreams whose subscription traps on `request(.none)`, for the queue's entries.
    static let timingQueueUpstreams = [
        "Producer", "Producer(failure)", "Producer(never-ending)", "Publishers.Emitting", "Publishers.Emitting(failure)",
    ]

    /// On a real serial queue: delivered asynchronously.
    static let timingOnQueue: [Entry] = timingQueueUpstreams.flatMap { (upstreamName: String) -> [Entry] in
        let upstream = (core + subjects + bridge).first { $0.name == upstreamName }!
        let transforms: [(String, Transform)] = [
            ("delay(for: 0, scheduler: DispatchQueue)", { $0.delay(for: .zero, scheduler: DispatchQueue(label: "sluice.registry.delay")) }),
            ("timeout(3600 s, scheduler: DispatchQueue)", { $0.timeout(.seconds(3_600), scheduler: DispatchQueue(label: "sluice.registry.timeout")) }),
            ("timeout(3600 s, scheduler: DispatchQueue, customError:)", {
                $0.timeout(.seconds(3_600), scheduler: DispatchQueue(label: "sluice.registry.timeout")) { TestFailure() }
            }),
        ]
        return transforms.map { name, transform in
            Entry(
                "\(name) over \(upstream.name)", elements: upstream.elements, values: upstream.expectedValues,
                ending: upstream.ending, delivery: .asynchronous, isCold: upstream.isCold
            ) { upstream.make().through(transform) }
        }
    }

    /// Over a `PassthroughSubject` in each of its shapes.
    static let timingDropping: [Entry] = timingDroppingOperators.flatMap {
        overPassthroughSubject($0.name, acceptsZeroDemand: $0.name.hasPrefix("throttle"), $0.transform)
    }

    /// On Sluice's own `ImmediateTestScheduler` (one timer per burst) and on a scheduler of
    /// Combine's (``ForeignImmediateScheduler``: Combine's calls), which the rules must not tell
    /// apart. `throttle` ignores `request(.none)`, as Combine's does.
    static let timingDroppingOperators: [(name: String, transform: Transform)] = [
        ("debounce(for: 1, scheduler: ImmediateTestScheduler())", { $0.debounce(for: .seconds(1), scheduler: ImmediateTestScheduler()) }),
        ("debounce(for: 1, scheduler: ForeignImmediateScheduler())", { $0.debounce(for: .seconds(1), scheduler: ForeignImmediateScheduler()) }),
        ("throttle(for: 1, scheduler: ImmediateTestScheduler(), latest: false)", {
            $0.throttle(for: .seconds(1), scheduler: ImmediateTestScheduler(), latest: false)
        }),
        ("throttle(for: 1, scheduler: ImmediateTestScheduler(), latest: true)", {
            $0.throttle(for: .seconds(1), scheduler: ImmediateTestScheduler(), latest: true)
        }),
        ("throttle(for: 1, scheduler: ForeignImmediateScheduler(), latest: false)", {
            $0.throttle(for: .seconds(1), scheduler: ForeignImmediateScheduler(), latest: false)
        }),
        ("throttle(for: 1, scheduler: ForeignImmediateScheduler(), latest: true)", {
            $0.throttle(for: .seconds(1), scheduler: ForeignImmediateScheduler(), latest: true)
        }),
    ]

    /// `timeout` that fires soon, on the queue: nothing but its ending, `.finished` or the
    /// custom error.
    static let timingTimeouts: [Entry] = [
        Entry(
            "timeout(1 ms, scheduler: DispatchQueue) over Empty(completeImmediately: false)", elements: 0, ending: .finished,
            delivery: .asynchronous, hasEmptySubscription: true
        ) {
            Source(Empty<Int, TestFailure>(completeImmediately: false).timeout(.milliseconds(1), scheduler: DispatchQueue(label: "sluice.registry.timeout")))
        },
        Entry(
            "timeout(1 ms, scheduler: DispatchQueue, customError:) over Empty(completeImmediately: false)", elements: 0, ending: .failure,
            delivery: .asynchronous, hasEmptySubscription: true
        ) {
            Source(
                Empty<Int, TestFailure>(completeImmediately: false).timeout(.milliseconds(1), scheduler: DispatchQueue(label: "sluice.registry.timeout")) {
                    TestFailure()
                })
        },
    ]
}

/// An `ImmediateTestScheduler` behind a scheduler type Sluice does not own, as a scheduler
/// written for Combine would be: `debounce` and `throttle` make Combine's calls to it.
final class ForeignImmediateScheduler: Scheduler, Sendable {
    typealias SchedulerTimeType = VirtualTime
    typealias SchedulerOptions = Never

    let base = ImmediateTestScheduler()

    var now: SchedulerTimeType { base.now }
    var minimumTolerance: SchedulerTimeType.Stride { base.minimumTolerance }

    func schedule(options: Never?, _ action: @escaping @Sendable () -> Void) { base.schedule(options: options, action) }

    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping @Sendable () -> Void) {
        base.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
}

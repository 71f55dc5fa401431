// Bounded memory of every bridge path: a slow consumer of a fast, endless producer keeps the
// number of buffered elements within the configured bound.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization
import Testing
import Sluice
import SluiceTesting

/// A `values` variant with the most elements it may hold for a slow loop.
enum MemoryValuesMode: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case onDemand, prefetch8, bufferingOldest8, bufferingNewest8, unboundedControl
    var testDescription: String { rawValue }

    func values<P: Publisher>(_ publisher: P) -> AsyncPublisher<P> {
        switch self {
        case .onDemand: publisher.values
        case .prefetch8: publisher.values(prefetch: 8)
        case .bufferingOldest8: publisher.values(bufferingPolicy: .bufferingOldest(8))
        case .bufferingNewest8: publisher.values(bufferingPolicy: .bufferingNewest(8))
        case .unboundedControl: publisher.values(bufferingPolicy: .unbounded)
        }
    }

    /// The configured bound: elements requested ahead or kept, not yet taken by the loop.
    var bound: Int {
        switch self {
        case .onDemand: 1
        case .prefetch8, .bufferingOldest8, .bufferingNewest8: 8
        case .unboundedControl: 8  // what the control must exceed to show the check can fail
        }
    }
}

extension AsyncStressSuites {
    @Suite("Bounded memory of the bridge", .timeLimit(.minutes(12)))
    struct BoundedMemoryTests {
        /// The producer: a thread sending new elements to a subject as fast as it can, forever.
        /// The consumer takes one element, then waits until the producer sent 64 more (8 times
        /// the largest bound) before it takes the next (a gate the test controls, not a sleep). The peak number of elements
        /// alive at once, counted by their init/deinit, may exceed the bound only by the element
        /// the sender holds, the one the loop holds and one in hand-over.
        @Test("a slow loop over a fast endless subject never holds more than the variant's bound",
            arguments: MemoryValuesMode.allCases)
        func slowLoopOverFastSubject(mode: MemoryValuesMode) async {
            let steps = StressBudget.scaled(64, minimum: 16)
            let live = LiveCounter()
            let sent = ProducedCounter()
            let subject = PassthroughSubject<LiveElement, Never>()
            let stopped = Atomic<Bool>(false)
            let senderDone = StressGate()
            var iterator = mode.values(subject).makeAsyncIterator()
            // A queue of its own: a spinning task or global-queue item would starve the loop.
            DispatchQueue(label: "sluice.memory.sender").async {
                var rank = 0
                while !stopped.load(ordering: .relaxed) {
                    subject.send(LiveElement(rank, counter: live))
                    sched_yield()  // an endless sender must not starve the tasks of parallel tests
                    sent.add()
                    rank += 1
                }
                senderDone.open()
            }
            var taken = 0
            var lastRank = -1
            var ordered = true
            while taken < steps, let element = await iterator.next() {
                if element.rank <= lastRank { ordered = false }
                lastRank = element.rank
                taken += 1
                let target = sent.value + 64
                guard await eventually({ sent.value >= target }) else {
                    Issue.record("the sender stopped sending")
                    break
                }
            }
            stopped.store(true, ordering: .relaxed)
            await senderDone.wait()
            #expect(taken == steps, "the loop ended after \(taken) of \(steps) elements")
            #expect(ordered, "elements out of order (\(mode))")
            let slack = 3
            if mode == .unboundedControl {
                #expect(live.highest > mode.bound + slack, "the control kept everything yet the peak stayed small: the check cannot fail")
            } else {
                #expect(live.highest <= mode.bound + slack, "peak of \(live.highest) live elements, bound \(mode.bound) (\(mode))")
            }
            _ = consume iterator
            #expect(await eventually { live.current == 0 }, "\(live.current) elements still alive after the loop ended")
        }

        /// The demand-honouring sources (an endless async sequence's publisher, an endless
        /// `Producer`) under a loop that takes one element per step: the elements produced and
        /// not yet taken never exceed the variant's bound (1 for `values`, `n` for
        /// `values(prefetch: n)`). The source checks it as it makes each element (a
        /// tripwire: the allowance grows only as the loop takes elements), so a source that
        /// runs ahead is caught when it does.
        @Test("a slow loop over an endless demand-honouring source never has more produced than the bound ahead",
            arguments: [EndlessSource.asyncSequence, .producer], [MemoryValuesMode.onDemand, .prefetch8])
        func slowLoopOverDemandHonouringSource(source: EndlessSource, mode: MemoryValuesMode) async {
            await Self.checkSlowLoop(over: source, mode: mode)
        }

        static func checkSlowLoop(over source: EndlessSource, mode: MemoryValuesMode) async {
            let steps = StressBudget.scaled(300, minimum: 30)
            let produced = ProducedCounter()
            var iterator = mode.values(source.publisher(counting: produced)).makeAsyncIterator()
            var taken = 0
            // A `next()` may request before it returns its element: while it runs, that element
            // counts as taken. `values` asks for that one element; `values(prefetch: n)` keeps
            // up to `n` more requested.
            let ahead = mode == .onDemand ? 0 : mode.bound
            produced.allow(1 + ahead + source.waiting)
            while taken < steps, let value = await iterator.next() {
                #expect(value == taken)
                taken += 1
                produced.allow(taken + 1 + ahead + source.waiting)
            }
            #expect(taken == steps, "the loop ended after \(taken) of \(steps) elements")
            #expect(produced.overshoot == 0,
                "\(produced.overshoot) produced beyond the bound of \(mode.bound) ahead of the loop (\(source), \(mode))")
        }

        /// A slow subscriber (a recorder requesting one element per step) of an endless async
        /// sequence's publisher and of an endless `Producer`: nothing is read or made ahead of
        /// the demand (the same tripwire).
        @Test("a slow subscriber of an endless async source gets nothing read or made ahead of its demand",
            arguments: [EndlessSource.asyncSequence, .producer])
        func slowSubscriberOfEndlessSource(source: EndlessSource) async {
            await Self.checkSlowSubscriber(of: source)
        }

        static func checkSlowSubscriber(of source: EndlessSource) async {
            let steps = StressBudget.scaled(300, minimum: 30)
            let produced = ProducedCounter()
            produced.allow(source.waiting)
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            source.publisher(counting: produced).subscribe(recorder)
            for step in 1...steps {
                produced.allow(step + source.waiting)
                recorder.request(.max(1))
                await recorder.waitForValues(count: step)
            }
            recorder.cancel()
            #expect(produced.overshoot == 0, "\(produced.overshoot) elements made ahead of demand (\(source))")
            #expect(recorder.values == Array(0..<steps))
            #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
        }
    }
}

/// An endless source that counts the elements it makes, for the read-ahead checks.
enum EndlessSource: String, Sendable, CustomTestStringConvertible {
    case asyncSequence, producer
    /// Broken on purpose: it reads one element ahead of its demand (for the mutant tests).
    case readingAhead

    var testDescription: String { rawValue }

    func publisher(counting produced: ProducedCounter) -> AnyPublisher<Int, Never> {
        switch self {
        case .asyncSequence:
            AnyPublisher(CountingAsyncSequence(limit: nil, produced: produced).publisher)
        case .producer:
            AnyPublisher(Producer<Int, Never> { sender in
                var value = 0
                while true {
                    produced.add()  // counted when made, before it waits for demand
                    guard await sender.send(value) else { return }
                    value += 1
                }
            })
        case .readingAhead:
            readingAheadPublisher(CountingAsyncSequence(limit: nil, produced: produced))
        }
    }

    /// Elements it holds beyond the demand by design: a producer's value waiting in `send`.
    var waiting: Int { self == .asyncSequence ? 0 : 1 }
}

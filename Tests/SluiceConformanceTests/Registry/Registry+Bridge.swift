import Sluice
import SluiceTesting

/// An actor to iterate on, for `publisher(priority:iteratingOn:)` and `IsolatedAsyncSequencePublisher`.
actor IterationActor {}

extension Registry {
    /// Every bridge path between publishers and Swift concurrency. Their values come from a
    /// task of their own, so rules await them (`delivery: .asynchronous`).
    static let bridge: [Entry] = asyncSequences + producers + asyncFutures + valuesRoundTrips

    static let asyncSequences: [Entry] = [
        Entry("AsyncSequence.publisher", elements: n, ending: .finished, delivery: .asynchronous) {
            Source(Numbers(count: n, ending: .finished).publisher)
        },
        Entry("AsyncSequence.publisher(failure)", elements: k, ending: .failure, delivery: .asynchronous) {
            Source(Numbers(count: k, ending: .failure).publisher)
        },
        Entry("AsyncSequence.publisher(never-ending)", elements: k, ending: .never, delivery: .asynchronous) {
            Source(Numbers(count: k, ending: .never).publisher)
        },
        Entry("AsyncSequence.publisher(priority:iteratingOn:)", elements: n, ending: .finished, delivery: .asynchronous) {
            Source(Numbers(count: n, ending: .finished).publisher(priority: .high, iteratingOn: IterationActor()))
        },
        Entry("AsyncSequence.publisher(priority:iteratingOn:)(failure)", elements: k, ending: .failure,
              delivery: .asynchronous) {
            Source(Numbers(count: k, ending: .failure).publisher(priority: .low, iteratingOn: IterationActor()))
        },
        Entry("AsyncSequence.publisher(priority:iteratingOn:)(never-ending)", elements: k, ending: .never,
              delivery: .asynchronous) {
            Source(Numbers(count: k, ending: .never).publisher(priority: nil, iteratingOn: IterationActor()))
        },
        // `iteratingOn: MainActor.shared` takes a loop of its own, isolated statically.
        Entry("AsyncSequence.publisher(iteratingOn: MainActor.shared)", elements: n, ending: .finished,
              delivery: .asynchronous) {
            Source(Numbers(count: n, ending: .finished).publisher(priority: .high, iteratingOn: MainActor.shared))
        },
        Entry("AsyncSequence.publisher(iteratingOn: MainActor.shared)(failure)", elements: k, ending: .failure,
              delivery: .asynchronous) {
            Source(Numbers(count: k, ending: .failure).publisher(priority: .low, iteratingOn: MainActor.shared))
        },
        Entry("AsyncSequence.publisher(iteratingOn: MainActor.shared)(never-ending)", elements: k, ending: .never,
              delivery: .asynchronous) {
            Source(Numbers(count: k, ending: .never).publisher(iteratingOn: MainActor.shared))
        },
        // A sequence that is not Sendable, made on the actor for each subscriber; the failing and
        // never-ending shapes go through `actor.publisher(iterating:)`, which makes the same type.
        Entry("IsolatedAsyncSequencePublisher", elements: n, ending: .finished, delivery: .asynchronous) {
            Source(IsolatedAsyncSequencePublisher(priority: .high, iteratingOn: IterationActor()) { _ in
                ActorBoundNumbers(numbers: Numbers(count: n, ending: .finished))
            })
        },
        Entry("IsolatedAsyncSequencePublisher(failure)", elements: k, ending: .failure, delivery: .asynchronous) {
            Source(IterationActor().publisher(priority: .low) { _ in
                ActorBoundNumbers(numbers: Numbers(count: k, ending: .failure))
            })
        },
        Entry("IsolatedAsyncSequencePublisher(never-ending)", elements: k, ending: .never, delivery: .asynchronous) {
            Source(IterationActor().publisher { _ in ActorBoundNumbers(numbers: Numbers(count: k, ending: .never)) })
        },
        // The same sequence made from `@MainActor` state and iterated on the main actor.
        Entry("MainActorAsyncSequencePublisher", elements: n, ending: .finished, delivery: .asynchronous) {
            Source(MainActorAsyncSequencePublisher(priority: .high) {
                ActorBoundNumbers(numbers: Numbers(count: n, ending: .finished))
            })
        },
        Entry("MainActorAsyncSequencePublisher(failure)", elements: k, ending: .failure, delivery: .asynchronous) {
            Source(MainActor.publisher(priority: .low) { ActorBoundNumbers(numbers: Numbers(count: k, ending: .failure)) })
        },
        Entry("MainActorAsyncSequencePublisher(never-ending)", elements: k, ending: .never, delivery: .asynchronous) {
            Source(MainActor.publisher { ActorBoundNumbers(numbers: Numbers(count: k, ending: .never)) })
        },
    ]

    static let producers: [Entry] = [
        Entry("Producer", elements: n, ending: .finished, delivery: .asynchronous) {
            Source(Bodies.producer(count: n, ending: .finished))
        },
        Entry("Producer(failure)", elements: k, ending: .failure, delivery: .asynchronous) {
            Source(Bodies.producer(count: k, ending: .failure))
        },
        Entry("Producer(never-ending)", elements: k, ending: .never, delivery: .asynchronous) {
            Source(Bodies.producer(count: k, ending: .never))
        },
    ]

    static let asyncFutures: [Entry] = [
        Entry("AsyncFuture", elements: 1, ending: .finished, delivery: .asynchronous) {
            Source(Bodies.asyncFuture(.finished))
        },
        Entry("AsyncFuture(failure)", elements: 0, ending: .failure, delivery: .asynchronous) {
            Source(Bodies.asyncFuture(.failure))
        },
        Entry("AsyncFuture(never-ending)", elements: 0, ending: .never, delivery: .asynchronous) {
            Source(Bodies.asyncFuture(.never))
        },
    ]

    /// `publisher.values…` turned back into a publisher with `.publisher`, for each `values`
    /// variant, over a finite, a failing and a never-ending upstream.
    static let valuesRoundTrips: [Entry] = ValuesVariant.allCases.flatMap { variant in
        [
            Entry("\(variant.name).publisher", elements: n, ending: .finished, delivery: .asynchronous) {
                Source(variant.apply(numbers(n)).publisher)
            },
            Entry("\(variant.name).publisher(failure)", elements: k, ending: .failure, delivery: .asynchronous) {
                Source(variant.apply(Record<Int, TestFailure>(output: Array(0..<k), completion: .failure(TestFailure())))
                    .publisher)
            },
            Entry("\(variant.name).publisher(never-ending)", elements: k, ending: .never, delivery: .asynchronous) {
                Source(variant.apply(Numbers(count: k, ending: .never).publisher).publisher)
            },
        ]
    }
}

/// The `values` variants: each turns a publisher into an ``AsyncPublisher``.
enum ValuesVariant: CaseIterable, Sendable {
    case onDemand, prefetch, unbounded, oldest, newest

    var name: String {
        switch self {
        case .onDemand: "values"
        case .prefetch: "values(prefetch: 2)"
        case .unbounded: "values(bufferingPolicy: .unbounded)"
        case .oldest: "values(bufferingPolicy: .bufferingOldest(8))"
        case .newest: "values(bufferingPolicy: .bufferingNewest(8))"
        }
    }

    func apply<P: Publisher>(_ publisher: P) -> AsyncPublisher<P> {
        switch self {
        case .onDemand: publisher.values
        case .prefetch: publisher.values(prefetch: 2)
        case .unbounded: publisher.values(bufferingPolicy: .unbounded)
        case .oldest: publisher.values(bufferingPolicy: .bufferingOldest(8))
        case .newest: publisher.values(bufferingPolicy: .bufferingNewest(8))
        }
    }
}

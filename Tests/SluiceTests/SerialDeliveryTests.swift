import Sluice
import Testing

/// `SerialDelivery`'s protocol played by one thread that stands for many: random sends,
/// requests, completions and returns of the deliverer, in every order, checked against what a
/// subscriber may see (rules 2 to 4). The subjects' and Create's stress suites check it under
/// real threads.
@Suite("SerialDelivery: one deliverer, values in the order admitted, never past demand")
struct SerialDeliveryTests {
    /// A seeded generator, so that a failing seed can be replayed.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D1_049B_133E_11EB
            return z ^ (z >> 31)
        }
    }

    struct Failure: Error, Equatable {}

    @Test("Random schedules keep order, demand and a last completion", arguments: 0..<200)
    func randomSchedule(seed: UInt64) {
        var random = Seeded(state: seed)
        var delivery = SerialDelivery<Int, Failure>()
        var admitted: [Int] = []  // accepted values, in order
        var delivered: [Int] = []
        var granted = 0  // demand requested plus returned by the subscriber
        var outWithAValue = false  // the deliverer is inside receive(_:)
        var completed = false
        var nextValue = 0

        func deliverNext(_ next: SerialDelivery<Int, Failure>.Next) {
            switch next {
            case .value(let value):
                #expect(!completed)
                delivered.append(value)
                outWithAValue = true
            case .completion:
                #expect(!completed && delivered == admitted, "the completion comes after every admitted value")
                completed = true
                outWithAValue = false
                delivery.reset()  // the owner terminates
            case .idle:
                outWithAValue = false
            }
        }

        for _ in 0..<300 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:  // a sender
                let value = nextValue
                nextValue += 1
                let demandBefore = delivery.demand
                switch delivery.admit(value) {
                case .refused:
                    #expect(demandBefore == .none || delivery.isFinishing || completed)
                case .queued:
                    #expect(outWithAValue, "a value is queued only while someone delivers")
                    admitted.append(value)
                case .deliver:
                    #expect(!outWithAValue, "two deliverers at once")
                    #expect(!completed)
                    admitted.append(value)
                    delivered.append(value)
                    outWithAValue = true
                }
            case 4..<6:  // a request
                guard !completed else { continue }
                let more = Int.random(in: 1...3, using: &random)
                granted += more
                delivery.demand += .max(more)
            case 6..<9:  // the deliverer comes back from receive(_:)
                guard outWithAValue else { continue }
                let more = Int.random(in: 0...1, using: &random)
                granted += more
                deliverNext(delivery.next(adding: .max(more)))
            default:  // the stream ends
                guard !completed, !delivery.isFinishing else { continue }
                if delivery.finish(.finished) {
                    #expect(!outWithAValue, "a completion delivered at once while a value is out")
                    #expect(delivered == admitted)
                    completed = true
                    delivery.reset()
                }
            }
            #expect(delivered.count <= granted, "more values delivered than demanded (seed \(seed))")
            #expect(Array(admitted.prefix(delivered.count)) == delivered, "out of order (seed \(seed))")
        }
        // Drain: the deliverer comes back until nothing is left.
        while outWithAValue { deliverNext(delivery.next(adding: .none)) }
        #expect(delivered == admitted)
        #expect(!delivery.delivering)
    }

    @Test("A completion that arrives while delivering waits for the queue, and a second one is ignored")
    func completionWaitsForTheQueue() {
        var delivery = SerialDelivery<Int, Failure>()
        delivery.demand = .max(3)
        guard case .deliver = delivery.admit(1) else { Issue.record("the first sender delivers"); return }
        guard case .queued = delivery.admit(2) else { Issue.record("the second is queued"); return }
        #expect(delivery.finish(.failure(Failure())) == false)
        #expect(delivery.finish(.finished) == false)
        guard case .refused = delivery.admit(3) else { Issue.record("nothing is admitted after a completion"); return }
        guard case .value(2) = delivery.next(adding: .none) else { Issue.record("the queue first"); return }
        guard case .completion(.failure) = delivery.next(adding: .none) else {
            Issue.record("then the first completion")
            return
        }
        #expect(!delivery.delivering && !delivery.hasMore)
    }
}

import Sluice
import SluiceTesting
import Synchronization
import Testing

// The examples in the doc comments of Publishers/Emitting/Emitting.swift, compiled and run.

@Suite struct EmittingExamples {
    @Test func sendsTheValuesPerDemandThenFinishes() {
        // snippet CreateFromValues begin
        let numbers = Publishers.Emitting<Int, Never> { emitter in
            let source = Mutex((values: [3, 2, 1], out: 0))   // import Synchronization
            emitter.onRequest { _ in
                // onRequest can run re-entrantly and on several threads: take a value out
                // before sending it, put it back if refused (and retry if demand came
                // meanwhile), and finish once no value is left or out.
                while let next = source.withLock({ s in s.values.popLast().map { s.out += 1; return $0 } }) {
                    let sent = emitter.send(next)
                    source.withLock { s in s.out -= 1; if !sent { s.values.append(next) } }
                    if !sent && emitter.demand == .none { return }
                }
                if source.withLock({ $0.values.isEmpty && $0.out == 0 }) { emitter.send(completion: .finished) }
            }
        }
        // snippet CreateFromValues end
        let subscriber = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        numbers.subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }
}

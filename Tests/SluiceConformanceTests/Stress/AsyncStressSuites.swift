// The asynchronous stress, memory and schedule suites run one test at a time.
import Sluice
import Testing

/// Parent of the asynchronous stress, bounded-memory and schedule suites, serialized: each of
/// them keeps a sender thread busy or polls, and run together with each other (and the rest of
/// the package's tests, on 2 cores) they starved the cooperative pool so that no async test
/// finished. One at a time they take seconds.
@Suite("Async stress, memory and schedules (serialized)", .serialized)
enum AsyncStressSuites {
    /// Each stress family's check, run on a deliberately broken source it must catch.
    @Suite("Mutants: every stress family catches a broken source", .timeLimit(.minutes(6)))
    struct StressMutantTests {
        @Test("the subject stress sees demand lost by a subject that forgets one request in a hundred")
        func subjectStressCatchesLostDemand() {
            withKnownIssue {
                SubjectStressTests.checkSendsRacingWithRequests(
                    RequestDroppingSubject(PassthroughSubject<Tagged, Never>(), every: 100))
            } matching: { isExpectationFailed($0, inFolder: "Stress") }
        }

        @Test("the async sequence stress sees a publisher that reads one element ahead")
        func producerStressCatchesReadAhead() async {
            await withKnownIssue {
                await ProducerStressTests.checkReadsNothingAhead { readingAheadPublisher($0) }
            } matching: { isExpectationFailed($0, inFolder: "Stress") }
        }

        @Test("the values stress sees a sender whose values never arrive")
        func valuesStressCatchesALostSender() async {
            await withKnownIssue {
                await ValuesStressTests.checkConcurrentSenders(mode: .bufferingUnbounded, subject: SenderDroppingSubject())
            } matching: { isExpectationFailed($0, inFolder: "Stress") }
        }

        @Test("the values stress sees a loop that gets nothing")
        func valuesStressCatchesNothingDelivered() async {
            await Patience.$current.withValue(.milliseconds(200)) {
                await withKnownIssue {
                    await ValuesStressTests.checkConcurrentSenders(
                        mode: .onDemand, subject: RequestDroppingSubject(PassthroughSubject<Tagged, Never>(), every: 1))
                } matching: { isExpectationFailed($0, inFolder: "Stress") }
            }
        }

        @Test("the random subject schedules see a subject that forgets one request in three")
        func subjectSchedulesCatchLostDemand() {
            withKnownIssue {
                RandomScheduleTests.checkSubject(
                    RequestDroppingSubject(PassthroughSubject<Int, Never>(), every: 3), hasCurrentValue: false)
            } matching: { isExpectationFailed($0, inFolder: "Schedules") }
        }

        @Test("the random subject schedules see a subject that calls its subscribers whatever their demand")
        func subjectSchedulesCatchAnUnguardedSubject() {
            withKnownIssue {
                RandomScheduleTests.checkSubject(UnguardedSubject<Int, Never>(), hasCurrentValue: false)
            } matching: { isExpectationFailed($0, inFolder: "Schedules") }
        }

        /// Over `values`, whose loop waits for each element, the source always catches up with
        /// the demand, so one element read beyond it trips the wire every time. (Over
        /// `values(prefetch: 8)` the loop can run ahead of a lagging source, so a source one
        /// element over its allowance is caught only when it catches up: not checked here.)
        @Test("the bounded-memory checks see a source that reads one element ahead")
        func boundedMemoryCatchesReadAhead() async {
            await withKnownIssue { await BoundedMemoryTests.checkSlowLoop(over: .readingAhead, mode: .onDemand) } matching: {
                isExpectationFailed($0, inFolder: "Memory")
            }
            await withKnownIssue { await BoundedMemoryTests.checkSlowSubscriber(of: .readingAhead) } matching: {
                isExpectationFailed($0, inFolder: "Memory")
            }
        }
    }
}


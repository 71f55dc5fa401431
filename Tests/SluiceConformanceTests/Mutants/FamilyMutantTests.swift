import Foundation
import Sluice
import SluiceTesting
import Testing

extension AsyncStressSuites {
    /// Each stress, memory and schedule family's check, run on a broken source or with an
    /// ``InjectedFault`` between its publisher and its subscriber: it must record an issue of
    /// its own (an expectation or a recorded issue in its folder, not a time limit or a thrown
    /// error). The family's own test is the control: the same check, with nothing broken.
    /// Stress families run at the minimum count here, schedules on a few seeds.
    @Suite("Mutants: every stress, memory and schedule family catches a broken source", .timeLimit(.minutes(12)))
    struct FamilyMutantTests {
        // MARK: Stress

        @Test("the subject stress sees demand lost by a subject that forgets one request in a hundred")
        func subjectStressCatchesLostDemand() {
            withKnownIssue {
                SubjectStressTests.checkSendsRacingWithRequests(
                    RequestDroppingSubject(PassthroughSubject<Tagged, Never>(), every: 100))
            } matching: { isCheckFailure($0, inFolder: "Stress") }
        }

        @Test("the async sequence stress sees a publisher that reads one element ahead")
        func producerStressCatchesReadAhead() async {
            await withKnownIssue {
                await ProducerStressTests.checkReadsNothingAhead { readingAheadPublisher($0) }
            } matching: { isCheckFailure($0, inFolder: "Stress") }
        }

        @Test("the values stress sees a sender whose values never arrive")
        func valuesStressCatchesALostSender() async {
            await withKnownIssue {
                await ValuesStressTests.checkConcurrentSenders(mode: .bufferingUnbounded, subject: SenderDroppingSubject())
            } matching: { isCheckFailure($0, inFolder: "Stress") }
        }

        @Test("the values stress sees a loop that gets nothing")
        func valuesStressCatchesNothingDelivered() async {
            await Patience.$current.withValue(.milliseconds(200)) {
                await withKnownIssue {
                    await ValuesStressTests.checkConcurrentSenders(
                        mode: .onDemand, subject: RequestDroppingSubject(PassthroughSubject<Tagged, Never>(), every: 1))
                } matching: { isCheckFailure($0, inFolder: "Stress") }
            }
        }

        @Test("the Emitting stress sees a value lost, and a cancelled subscriber kept")
        func emittingStressCatchesLossAndRetention() {
            stressMutant { EmittingStressTests.checkSenderRacingWithRequests(fault: .dropsValue(at: 10)) }
            stressMutant { EmittingStressTests.checkRequestsRacingWithCancel(fault: .keepsSubscriber) }
        }

        @Test("the flatMap stress sees a value twice; the switchToLatest stress a cancelled subscriber kept")
        func flatMapStressCatchesDuplicateAndRetention() {
            stressMutant { FlatMapStressTests.checkFlatMapRacingInners(demandPerValue: .max(1), fault: .duplicatesValue(at: 10)) }
            stressMutant { FlatMapStressTests.checkSwitchRacingInners(demandPerValue: .unlimited, fault: .keepsSubscriber) }
        }

        @Test("the Future and sink stress sees a value lost by a sink, and a cancelled subscriber of a future kept")
        func futureSinkStressCatchesLossAndRetention() {
            stressMutant { FutureSinkStressTests.checkSinksUnderConcurrentSends(fault: .dropsValue(at: 3)) }
            stressMutant { FutureSinkStressTests.checkPromisesRacingWithSubscribers(fault: .keepsSubscriber) }
        }

        @Test("the zip and combineLatest stress sees a pair lost, tuples out of order, and signals after a cancel")
        func joinStressCatchesLossReorderAndLateSignals() {
            stressMutant { TupleStressTests.checkZipRace(demandPerValue: .max(1), fault: .dropsValue(at: 5)) }
            stressMutant { TupleStressTests.checkCombineLatestRace(demandPerValue: .unlimited, fault: .swapsValues(at: 5)) }
            stressMutant { TupleStressTests.checkCancelRace(kind: "combineLatest", fault: .ignoresCancel) }
        }

        @Test("the merge stress sees a value lost")
        func mergeStressCatchesLoss() {
            stressMutant { MergeStressTests.checkRacingUpstreams(demandPerValue: .max(1), fault: .dropsValue(at: 7)) }
        }

        @Test("the sequence stress sees a value twice, and a cancelled subscriber kept")
        func sequenceStressCatchesDuplicateAndRetention() {
            stressMutant { SequenceStressTests.checkConcurrentRequests(fault: .duplicatesValue(at: 5)) }
            stressMutant { SequenceStressTests.checkRequestsRacingWithCancel(fault: .keepsSubscriber) }
        }

        @Test("the share() stress sees each subscriber's first value twice")
        func sharingStressCatchesDuplicates() {
            stressMutant { SharingStressTests.checkJoinAndLeaveWhileSending(fault: .duplicatesValue(at: 0)) }
        }

        @Test("the soak sees each churning sink's first value twice")
        func soakCatchesDuplicates() async {
            await StressBudget.$reduction.withValue(1_000) {
                await withKnownIssue {
                    await SoakStressTests.checkSendersChurnAndValuesLoops(fault: .duplicatesValue(at: 0))
                } matching: { isCheckFailure($0, inFolder: "Stress") }
            }
        }

        // MARK: Memory

        /// Over `values`, whose loop waits for each element, the source always catches up with
        /// the demand, so one element read beyond it trips the wire every time. (Over
        /// `values(prefetch: 8)` the loop can run ahead of a lagging source, so a source one
        /// element over its allowance is caught only when it catches up: not checked here.)
        @Test("the bounded-memory checks see a source that reads one element ahead")
        func boundedMemoryCatchesReadAhead() async {
            await withKnownIssue { await BoundedMemoryTests.checkSlowLoop(over: .readingAhead, mode: .onDemand) } matching: {
                isCheckFailure($0, inFolder: "Memory")
            }
            await withKnownIssue { await BoundedMemoryTests.checkSlowSubscriber(of: .readingAhead) } matching: {
                isCheckFailure($0, inFolder: "Memory")
            }
        }

        // MARK: Schedules

        @Test("the random subject schedules see a subject that forgets one request in three")
        func subjectSchedulesCatchLostDemand() {
            withKnownIssue {
                RandomScheduleTests.checkSubject(
                    RequestDroppingSubject(PassthroughSubject<Int, Never>(), every: 3), hasCurrentValue: false)
            } matching: { isCheckFailure($0, inFolder: "Schedules") }
        }

        @Test("the random subject schedules see a subject that calls its subscribers whatever their demand")
        func subjectSchedulesCatchAnUnguardedSubject() {
            withKnownIssue {
                RandomScheduleTests.checkSubject(UnguardedSubject<Int, Never>(), hasCurrentValue: false)
            } matching: { isCheckFailure($0, inFolder: "Schedules") }
        }

        @Test("the operator schedules see a second value lost")
        func operatorSchedulesCatchLoss() {
            scheduleMutant { OperatorScheduleTests.check(OperatorScheduleTests.operations[0], fault: .dropsValue(at: 1)) }
        }

        @Test("the flatMap schedules see a value twice")
        func flatMapSchedulesCatchDuplicates() {
            scheduleMutant { FlatMapScheduleTests.check(fault: .duplicatesValue(at: 0)) }
        }

        @Test("the two-upstream schedules see zip, combineLatest and merge lose their first value", arguments: MultiUpstreamScheduleTests.operators)
        func multiUpstreamSchedulesCatchLoss(_ op: MultiUpstreamScheduleTests.Operator) {
            scheduleMutant { MultiUpstreamScheduleTests.check(op, fault: .dropsValue(at: 0)) }
        }

        @Test("the switchToLatest schedules see the first value lost")
        func switchToLatestSchedulesCatchLoss() {
            scheduleMutant { SwitchToLatestScheduleTests.check(fault: .dropsValue(at: 0)) }
        }

        @Test("the asynchronous bridge schedules see a value lost", arguments: ["asyncSequence", "producer"])
        func asyncSchedulesCatchLoss(source: String) async {
            await ScheduleSeeds.$limit.withValue(10) {
                await withKnownIssue {
                    await AsyncScheduleTests.checkEndlessSources(source: source, fault: .dropsValue(at: 0))
                } matching: { isCheckFailure($0, inFolder: "Schedules") }
            }
        }

        // MARK: Every family

        @Test("Every stress, memory and schedule family is run against a mutant it must catch")
        func everyFamilyHasAMutant() throws {
            // The families are the suites of Stress/, Memory/ and Schedules/; each must have
            // one of its checks called here.
            let folder = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            let families = try ["Stress", "Memory", "Schedules"].flatMap { name in
                try FileManager.default.contentsOfDirectory(at: folder.appending(path: name), includingPropertiesForKeys: nil)
                    .filter { $0.pathExtension == "swift" }
                    .flatMap { file in
                        try String(contentsOf: file, encoding: .utf8)
                            .matches(of: /@Suite\([^\n]*\n\s*(?:struct|enum) (\w+)/).map { String($0.output.1) }
                    }
            }
            .filter { $0 != "AsyncStressSuites" }  // the parent of the serialized families
            let mutants = try String(contentsOf: URL(filePath: #filePath), encoding: .utf8)
            #expect(families.count >= 18, "the families were found: \(families)")
            for family in families {
                #expect(mutants.contains("\(family).check"), "no mutant test runs a check of \(family)")
            }
        }

        /// Runs a stress family's check at its minimum count; it must record an issue of its own.
        private func stressMutant(_ check: () -> Void) {
            StressBudget.$reduction.withValue(1_000) {
                withKnownIssue { check() } matching: { isCheckFailure($0, inFolder: "Stress") }
            }
            InjectedFault.releaseKept()
        }

        /// Runs a schedule family's check on a few seeds; it must record an issue of its own.
        private func scheduleMutant(_ check: () -> Void) {
            ScheduleSeeds.$limit.withValue(30) {
                withKnownIssue { check() } matching: { isCheckFailure($0, inFolder: "Schedules") }
            }
        }
    }
}

/// Whether `issue` is a check of a file in `folder` failing: a failed expectation, or an issue
/// recorded there (the schedules report a whole trace that way), and not a time limit, a thrown
/// error or a harness check elsewhere.
func isCheckFailure(_ issue: Issue, inFolder folder: String) -> Bool {
    switch issue.kind {
    case .expectationFailed, .unconditional:
        return issue.sourceLocation.map { $0.filePath.contains("/\(folder)/") } ?? false
    default:
        return false
    }
}

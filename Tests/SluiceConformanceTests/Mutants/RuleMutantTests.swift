import Foundation
import Sluice
import SluiceTesting
import Testing

/// A rule that catches no broken publisher is not a rule: each rule runs here against a
/// publisher with one deliberate fault (a mutant), and must record an issue; and against the
/// same kind of publisher without the fault (its control), and must record none, so that a
/// mutant is caught for its fault and not for a broken harness.
@Suite("Mutants: every rule catches a publisher that breaks it", .timeLimit(.minutes(12)))
struct RuleMutantTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let rule: String
        let mutant: Entry
        let control: Entry
        let check: @Sendable (Entry) async -> Void

        var testDescription: String { "\(rule) catches \(mutant.name)" }
    }

    static func mutant(_ fault: MutantPublisher.Fault, asynchronous: Bool = false, endless: Bool = false) -> Entry {
        Entry(
            "MutantPublisher(.\(fault))\(asynchronous ? ", asynchronous" : "")\(endless ? ", endless" : "")", elements: 5,
            ending: endless ? .never : .finished, delivery: asynchronous ? .asynchronous : .synchronous,
            scaled: { count in Source(MutantPublisher(fault, count: count, asynchronous: asynchronous, endless: endless)) }
        ) { Source(MutantPublisher(fault, asynchronous: asynchronous, endless: endless)) }
    }

    static let unguardedSubject = Entry(
        "UnguardedSubject", elements: 5, ending: .finished, delivery: .hot, forwardsValuesUnchanged: true
    ) {
        Bodies.subject(UnguardedSubject<Int, TestFailure>(), count: 5, ending: .finished)
    }

    static let passthroughSubject = Entry(
        "PassthroughSubject", elements: 5, ending: .finished, delivery: .hot, forwardsValuesUnchanged: true
    ) {
        Bodies.subject(PassthroughSubject<Int, TestFailure>(), count: 5, ending: .finished)
    }

    static func caught(
        by rule: String, _ faults: [MutantPublisher.Fault], asynchronous: Bool = false,
        _ check: @escaping @Sendable (Entry) async -> Void
    ) -> [Case] {
        faults.map { fault in
            Case(
                rule: rule, mutant: mutant(fault, asynchronous: asynchronous),
                control: mutant(.none, asynchronous: asynchronous), check: check)
        }
    }

    static let cases: [Case] =
        caught(by: "rule 1.1, one at a time", [.sendsPastDemand]) { await DemandRules().oneValuePerRequestedOne(entry: $0) }
        + [Case(rule: "rule 1.1, one at a time (the subject keeps demand, not the pump)", mutant: unguardedSubject,
                control: passthroughSubject) { await DemandRules().oneValuePerRequestedOne(entry: $0) }]
        + caught(by: "rule 2, returned demand", [.ignoresReturnedDemand]) { await DemandRules().demandReturnedFromReceiveCounts(entry: $0) }
        + caught(by: "rule 1.1, no more than requested", [.sendsPastDemand]) { await DemandRules().noMoreThanRequested(entry: $0) }
        + caught(by: "rule 1.1, no more than requested", [.sendsPastDemand], asynchronous: true) {
            await DemandRules().noMoreThanRequested(entry: $0)
        }
        + caught(by: "rule 3.8, demand adds up", [.replacesDemand]) { await DemandRules().demandAddsUp(entry: $0) }
        + caught(by: "rule 3.17, saturation", [.wrapsDemand]) { await DemandRules().demandSaturates(entry: $0) }
        + caught(by: "rules 1.5, 1.7, all values then the completion", [.reorders, .dropsAValue, .completesTwice]) {
            await SignalRules().completesAfterAllValuesAndNothingFollows(entry: $0)
        }
        + caught(by: "rule 1.3, racing requests", [.unserialized]) { await SignalRules().concurrentRequestsKeepSignalsSerial(entry: $0) }
        + [Case(rule: "rule 3, racing sends", mutant: unguardedSubject, control: passthroughSubject) {
            try? await SignalRules().concurrentSendsAreSerial(entry: $0)
        }]
        + caught(by: "rules 3.5-3.7, request after cancel", [.ignoresCancel, .completesOnCancel]) {
            await CancellationRules().cancelIsIdempotentAndRequestAfterItIsANoOp(entry: $0)
        }
        + caught(by: "rule 3.12, signals stop after cancel", [.ignoresCancel, .completesOnCancel]) {
            await CancellationRules().signalsStopAfterCancel(entry: $0)
        }
        + caught(by: "rule 3.13, a cancel releases the subscriber", [.keepsSubscriber]) {
            await ReferenceRules().cancelReleasesTheSubscriber(entry: $0)
        }
        + caught(by: "rule 3.13, a completion releases the subscriber", [.keepsSubscriber]) {
            await ReferenceRules().completionReleasesTheSubscriber(entry: $0)
        }
        + caught(by: "rule 3.13, a cancel before demand releases the subscriber", [.keepsSubscriber]) {
            await ReferenceRules().cancelBeforeDemandReleasesTheSubscriber(entry: $0)
        }
        + caught(by: "rule 3.13, a cancel inside receive releases the subscriber", [.keepsSubscriber]) {
            await ReferenceRules().reentrantCancelReleasesTheSubscriber(entry: $0)
        }
        + caught(by: "rule 3.5, cancel racing with requests", [.completesOnCancel]) {
            await CancellationRules().cancelFromManyThreadsAtOnce(entry: $0)
        }
        + [Case(rule: "a never-ending publisher stays open", mutant: mutant(.endsAnyway, endless: true),
                control: mutant(.none, endless: true)) { await SignalRules().neverEndingStaysOpen(entry: $0) }]
        + caught(by: "rule 1, subscription once", [.subscribesTwice]) { await SubscriptionRules().subscriptionComesFirstExactlyOnce(entry: $0) }
        + caught(by: "rule 1, no value before demand", [.sendsWithoutDemand]) { await SubscriptionRules().noValueBeforeDemand(entry: $0) }
        + caught(by: "rule 1.10, independent resubscription", [.sharesProgress]) {
            await SubscriptionRules().resubscriptionIsFreshAndIndependent(entry: $0)
        }
        + caught(by: "rule 3.2, re-entrant request", [.unserialized]) { await ReentrancyRules().reentrantRequest(entry: $0) }
        + caught(by: "rule 3.12, re-entrant cancel", [.ignoresCancel]) { await ReentrancyRules().reentrantCancel(entry: $0) }

    @Test(arguments: cases)
    func ruleCatchesItsMutant(_ testCase: Case) async {
        await testCase.check(testCase.control)
        // The mutant is expected to fail a wait for a release: no need to wait long.
        await MutantScope.run {
            await Patience.$current.withValue(.milliseconds(200)) {
                await withKnownIssue("\(testCase.rule) must fail for \(testCase.mutant.name)") {
                    await testCase.check(testCase.mutant)
                } matching: { issue in
                    // Caught by one of the rule's own expectations, not by a time limit, a
                    // thrown error or a harness check.
                    isExpectationFailed(issue, inFolder: "Rules")
                }
            }
        }
    }

    @Test("Every rule is run against a mutant it must catch")
    func everyRuleHasAMutant() throws {
        // The rules are the functions of Rules/*.swift that take an entry; each must be called
        // by a mutant test (this file, or SubscriberMutantTests for the subscriber rules).
        let folder = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let rules = try FileManager.default.contentsOfDirectory(at: folder.appending(path: "Rules"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
            .flatMap { file in
                try String(contentsOf: file, encoding: .utf8).matches(of: /func (\w+)\(entry:/).map { String($0.output.1) }
            }
        let mutants = try ["RuleMutantTests.swift", "SubscriberMutantTests.swift"]
            .map { try String(contentsOf: folder.appending(path: "Mutants/\($0)"), encoding: .utf8) }
            .joined()
        #expect(rules.count >= 20, "the rules were found: \(rules)")
        for rule in rules {
            #expect(mutants.contains(".\(rule)(entry:"), "no mutant test runs \(rule)")
        }
    }

    @Test("Every fault is caught by some rule")
    func everyFaultIsCaught() {
        let caught = Set(Self.cases.map(\.mutant.name))
        for fault in MutantPublisher.Fault.allCases where fault != .none {
            let names = [Self.mutant(fault).name, Self.mutant(fault, endless: true).name]
            #expect(names.contains(where: caught.contains), "no rule is checked against .\(fault)")
        }
    }

    @Test(
        "Rule 3.3's million re-entrant requests kill a publisher that delivers inside request(_:) (the stack overflows)",
        .exitTest
    )
    func unboundedRecursionIsCaught() async throws {
        // The control, in this process: the same publisher with its drain loop passes.
        try await BoundedRecursionRules().millionReentrantRequests(entry: Self.mutant(.none))
        await #expect(processExitsWith: .failure) {
            try await BoundedRecursionRules().millionReentrantRequests(entry: RuleMutantTests.mutant(.unserialized))
        }
    }
}

/// Whether `issue` is a failed `#expect` or `#require` written in a file of `folder` (of the
/// conformance tests): a mutant must be caught by the check that targets its fault, not by a
/// time limit or an error.
func isExpectationFailed(_ issue: Issue, inFolder folder: String) -> Bool {
    guard case .expectationFailed = issue.kind, let location = issue.sourceLocation else { return false }
    return location.filePath.contains("/\(folder)/")
}

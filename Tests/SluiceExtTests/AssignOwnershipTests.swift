import Dispatch
import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("assign(to:on:ownership:) and assigning to many (CombineExt)")
struct AssignOwnershipTests {
    final class Box {
        var value = 0
        var name = ""
    }

    @Test("strong keeps the object alive until cancel; weak does not, and later values are skipped",
          arguments: [ObjectOwnership.strong, .weak, .unowned])
    func ownership(ownership: ObjectOwnership) {
        let subject = PassthroughSubject<Int, Never>()
        var box: Box? = Box()
        let watched = Weak(box!)
        let cancellable = subject.assign(to: \.value, on: box!, ownership: ownership)
        subject.send(1)
        #expect(watched.object?.value == 1)
        box = nil
        #expect((watched.object != nil) == (ownership == .strong))
        if ownership == .weak { subject.send(2) }   // skipped, no trap
        cancellable.cancel()
        #expect(watched.object == nil)
    }

    @Test("two and three objects are assigned in order, each held as ownership says")
    func many() {
        let subject = PassthroughSubject<String, Never>()
        let first = Box(), second = Box()
        var third: Box? = Box()
        let watched = Weak(third!)
        let two = subject.assign(to: \.name, on: first, and: \.name, on: second)
        let three = subject.assign(to: \.name, on: first, and: \.name, on: second, and: \.name, on: third!, ownership: .weak)
        subject.send("a")
        #expect([first.name, second.name, watched.object?.name] == ["a", "a", "a"])
        third = nil
        #expect(watched.object == nil)
        subject.send("b")
        #expect([first.name, second.name] == ["b", "b"])
        two.cancel()
        three.cancel()
    }

    /// Says, for each assignment, whether it ran on the main queue (where the main actor runs).
    final class MainQueueProbe {
        static let key = DispatchSpecificKey<Bool>()
        let assignments = RecordingSubscriber<Bool, Never>()
        private let onMainQueue = PassthroughSubject<Bool, Never>()
        var value = 0 { didSet { onMainQueue.send(DispatchQueue.getSpecific(key: Self.key) == true) } }
        init() { onMainQueue.subscribe(assignments) }
    }

    @Test("made on the main actor, the assignments run on the main actor whatever thread sends",
          .timeLimit(.minutes(12)))
    @MainActor
    func mainActor() async {
        DispatchQueue.main.setSpecific(key: MainQueueProbe.key, value: true)
        let subject = PassthroughSubject<Int, Never>()
        let probe = MainQueueProbe()
        let cancellable = subject.assign(to: \.value, on: probe, ownership: .weak)
        await Task.detached { subject.send(1) }.value
        await probe.assignments.waitForValues(count: 1)
        #expect(probe.assignments.values == [true])
        #expect(probe.value == 1)
        cancellable.cancel()
        probe.assignments.cancel()   // lets go of the probe's subject
    }
}

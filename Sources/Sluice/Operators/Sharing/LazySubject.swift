#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The subject of a ``Publishers/Multicast``: made by the multicast's closure on first use (the first
/// subscriber or the first `connect()`, whichever comes first), exactly once, and the same one ever after.
///
/// The closure is user code, so it runs with no lock held (rule 6). A thread that asks for
/// the subject while another is making it waits for that one (yielding its time slice): the
/// wait lasts as long as the closure, which only runs once.
///
/// ```text
/// empty ──first get──▶ creating(thread) ──closure returned──▶ created(subject)
/// ```
@usableFromInline
struct LazySubject<SubjectType: Subject> {
    @usableFromInline
    enum Slot {
        case empty
        /// The thread running the closure: the closure re-entering the multicast is caught.
        case creating(thread: UInt)
        case created(SubjectType)
    }

    /// What a caller found under the lock.
    @usableFromInline
    enum Claim {
        case ready(SubjectType)
        case create
        case wait
        case reentered
    }

    @usableFromInline let slot = Locked(Slot.empty)

    @inlinable init() {}

    /// The subject, made with `create` if this is the first use.
    @inlinable
    func get(_ create: () -> SubjectType) -> SubjectType {
        if case .created(let subject) = slot.withLock({ $0 }) { return subject }
        return make(create)
    }

    /// The first use, and any use racing with it.
    @usableFromInline
    func make(_ create: () -> SubjectType) -> SubjectType {
        let thread = currentThreadIdentity()
        while true {
            let claim = slot.withLock { slot -> Claim in
                switch slot {
                case .created(let subject): return .ready(subject)
                case .creating(let creator): return creator == thread ? .reentered : .wait
                case .empty:
                    slot = .creating(thread: thread)
                    return .create
                }
            }
            switch claim {
            case .ready(let subject):
                return subject
            case .create:
                let subject = create()
                slot.withLock { $0 = .created(subject) }
                return subject
            case .wait:
                yieldProcessor()
            case .reentered:
                Violation.multicastSubjectReentered()
            }
        }
    }

    private func yieldProcessor() {
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        sched_yield()
        #endif
    }
}

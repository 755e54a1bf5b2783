import { type SchedulerAction, type SchedulerLike, Subscription } from "rxjs";

interface Task {
  due: number;
  seq: number;
  run: () => void;
  done: boolean;
}

/**
 * A clock that moves only when told to, for tests: `advance` runs every timer that falls due on
 * the way, each at its own instant and in order. A timer's work may reschedule itself
 * (`this.schedule(state, delay)`), as RxJS's `interval` and `timer` do.
 */
export class VirtualClock implements SchedulerLike {
  private tasks: Task[] = [];
  private seq = 0;
  private time: number;

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  /** Sets the time; a subclass with its own notion of now overrides this and `now` together. */
  protected moveTo(time: number): void {
    this.time = time;
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    const subscription = new Subscription();
    let task: Task | undefined;
    const plan = (nextState: T | undefined, after: number): void => {
      if (task) task.done = true;
      if (subscription.closed) return;
      const planned: Task = {
        due: this.now() + Math.max(0, after),
        seq: this.seq++,
        run: () => {
          work.call(action, nextState);
          // Done unless the work planned itself again, as an RxJS action is.
          if (task === planned) subscription.unsubscribe();
        },
        done: false,
      };
      task = planned;
      this.tasks.push(planned);
      this.queueChanged();
    };
    const action = Object.assign(subscription, {
      schedule(nextState?: T, after = 0): Subscription {
        plan(nextState, after);
        return subscription;
      },
    }) as SchedulerAction<T>;
    subscription.add(() => {
      if (task) task.done = true;
    });
    plan(state, delay);
    return subscription;
  }

  /** Moves time forward by `ms`, running the timers due on the way. */
  advance(ms: number): void {
    if (ms < 0) throw new RangeError("the clock only moves forward");
    this.advanceTo(this.now() + ms);
  }

  /** Moves time forward to `target`, running the timers due on the way. */
  advanceTo(target: number): void {
    for (let next = this.nextDue(target); next; next = this.nextDue(target)) {
      if (next.due > this.now()) this.moveTo(next.due);
      next.done = true;
      next.run();
    }
    if (target > this.now()) this.moveTo(target);
  }

  /**
   * `advance` for timers whose work goes on asynchronously: after the timers of each instant
   * (all of them, as work started together may share a request), `settle` (by default a turn
   * of the event loop) lets that work finish before time moves on.
   */
  async advanceAsync(ms: number, settle: () => Promise<void> = nextTurn): Promise<void> {
    const target = this.now() + ms;
    for (let next = this.nextDue(target); next; next = this.nextDue(target)) {
      if (next.due > this.now()) this.moveTo(next.due);
      for (let same: Task | undefined = next; same; same = this.nextDue(this.now())) {
        same.done = true;
        same.run();
      }
      await settle();
    }
    if (target > this.now()) this.moveTo(target);
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.tasks.filter((task) => !task.done).length;
  }

  /** When the earliest waiting timer falls due; undefined when none waits. */
  protected earliestDue(): number | undefined {
    return this.nextDue(Number.POSITIVE_INFINITY)?.due;
  }

  /** Called when a timer is added, so a subclass can arm a real timer for the earliest one. */
  protected queueChanged(): void {}

  private nextDue(target: number): Task | undefined {
    this.tasks = this.tasks.filter((task) => !task.done);
    let best: Task | undefined;
    for (const task of this.tasks) {
      if (task.due <= target && (!best || task.due < best.due || (task.due === best.due && task.seq < best.seq))) {
        best = task;
      }
    }
    return best;
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

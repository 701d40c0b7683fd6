import type { AnyStateMachine } from 'xstate';

interface NodeLike {
  readonly key: string;
  readonly id: string;
  readonly type: string;
  readonly initial?: { readonly target: ReadonlyArray<{ readonly id: string }> } | undefined;
  readonly states: Readonly<Record<string, NodeLike>>;
  readonly transitions: ReadonlyMap<string, ReadonlyArray<TransitionLike>>;
  readonly always?: ReadonlyArray<TransitionLike> | undefined;
  readonly entry: ReadonlyArray<unknown>;
}

interface TransitionLike {
  readonly target?: ReadonlyArray<{ readonly id: string }> | undefined;
  readonly guard?: unknown;
  readonly reenter?: boolean;
}

function guardName(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') return guard.type;
  return 'guard';
}

function actionName(action: unknown): string | null {
  if (typeof action === 'string') return action;
  if (typeof action === 'object' && action !== null && 'type' in action && typeof action.type === 'string') {
    const params = 'params' in action ? (action.params as Record<string, unknown> | undefined) : undefined;
    const event = params?.['event'];
    return typeof event === 'string' ? `emit ${event}` : action.type;
  }
  return null;
}

const nameOf = (id: string) => id.split('.').slice(1).join('_') || id;

/**
 * Renders a machine as a Mermaid `stateDiagram-v2`, read from the machine's own definition:
 * every state, transition, guard (in brackets) and entry action. Used by `npm run diagram`.
 */
export function toMermaid(machine: AnyStateMachine): string {
  const lines: string[] = ['stateDiagram-v2'];
  const visit = (node: NodeLike, indent: string): void => {
    const children = Object.values(node.states);
    if (node.initial !== undefined && node.initial.target[0] !== undefined) {
      lines.push(`${indent}[*] --> ${nameOf(node.initial.target[0].id)}`);
    }
    for (const child of children) {
      const name = nameOf(child.id);
      const entry = child.entry.map(actionName).filter((a): a is string => a !== null);
      if (Object.keys(child.states).length > 0) {
        lines.push(`${indent}state ${name} {`);
        visit(child, `${indent}  `);
        lines.push(`${indent}}`);
      }
      if (entry.length > 0) lines.push(`${indent}${name} : entry / ${entry.join(', ')}`);
      const edges: Array<[string, TransitionLike]> = [
        ...(child.always ?? []).map((t): [string, TransitionLike] => ['always', t]),
        ...[...child.transitions.entries()].flatMap(([event, ts]) =>
          ts.map((t): [string, TransitionLike] => [event, t]),
        ),
      ];
      for (const [event, transition] of edges) {
        const guard = guardName(transition.guard);
        const label = guard === null ? event : `${event} [${guard}]`;
        const targets = transition.target ?? [];
        for (const target of targets) lines.push(`${indent}${name} --> ${nameOf(target.id)} : ${label}`);
      }
      if (child.type === 'final') lines.push(`${indent}${name} --> [*]`);
    }
  };
  visit(machine.root as unknown as NodeLike, '  ');
  return `${lines.join('\n')}\n`;
}

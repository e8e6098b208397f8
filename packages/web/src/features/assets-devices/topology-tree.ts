export interface TopologyLink {
  parentDeviceId: number;
  childDeviceId: number;
}

export interface TopologyNode {
  id: number;
  children: TopologyNode[];
}

/**
 * Parent → children trees from topology links. Roots are parents no link names as a child; a
 * device met twice on one path (a cycle) is not expanded again, and a cycle with no root still
 * shows from its smallest id.
 */
export function buildTopologyTree(links: readonly TopologyLink[]): TopologyNode[] {
  const children = new Map<number, number[]>();
  const isChild = new Set<number>();
  const all = new Set<number>();
  for (const { parentDeviceId: p, childDeviceId: c } of links) {
    children.set(p, [...(children.get(p) ?? []), c]);
    isChild.add(c);
    all.add(p);
    all.add(c);
  }
  const placed = new Set<number>();
  const grow = (id: number, path: Set<number>): TopologyNode => {
    placed.add(id);
    const next = new Set(path).add(id);
    const kids = (children.get(id) ?? []).filter((c) => !next.has(c)).sort((a, b) => a - b);
    return { id, children: kids.map((c) => grow(c, next)) };
  };
  const roots = [...all]
    .filter((id) => !isChild.has(id))
    .sort((a, b) => a - b)
    .map((id) => grow(id, new Set()));
  for (const id of [...all].sort((a, b) => a - b)) if (!placed.has(id)) roots.push(grow(id, new Set()));
  return roots;
}

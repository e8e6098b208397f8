/** The device fields a schedule looks at. */
export interface PlanDevice {
  id: number;
  deviceTypeModelId: number | null;
  regionId: number | null;
}

export interface PlanGroup {
  id: number;
  deviceTypeModelId: number | null;
  regionId: number | null;
  /** `draft` and `paused` groups run nothing. */
  status: string | null;
  /** Listed members; when there are any, they alone are the group. */
  memberIds: number[];
}

/**
 * Whether a device is in a task group: its listed members when it lists any, else the devices of
 * its model and region (each one that is set); a group naming neither has no members.
 */
export function groupHasDevice(group: PlanGroup, device: PlanDevice): boolean {
  if (group.status === 'draft' || group.status === 'paused') return false;
  if (group.memberIds.length) return group.memberIds.includes(device.id);
  if (group.deviceTypeModelId === null && group.regionId === null) return false;
  return (
    (group.deviceTypeModelId === null || group.deviceTypeModelId === device.deviceTypeModelId) &&
    (group.regionId === null || group.regionId === device.regionId)
  );
}

import type { WritePolicy } from '../data/resource-repository.ts';
import { ApiException } from '../errors/api-exception.ts';

/**
 * A command in the write log is a record of what was sent: once it has left (sent, acknowledged,
 * failed) it is neither changed nor deleted — only one still waiting to be sent may be.
 */
const unsent = (before: Record<string, unknown>) => {
  if (before.status !== 'pending') throw new ApiException('FORBIDDEN', 'errors.commandSent');
};

export const commandPolicies: Record<string, WritePolicy> = {
  'channel-write-values': {
    async update({ before }) {
      unsent(before);
      return undefined;
    },
    async delete({ before }) {
      unsent(before);
      return undefined;
    },
  },
};

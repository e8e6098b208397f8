import { Flex, theme } from 'antd';
import type { ReactNode } from 'react';

/**
 * A hand-made screen's title row: its heading (level 2: the header bar holds the level 1) and the
 * controls beside it, wrapping under it on a narrow window.
 */
export function ScreenTitle({ title, children, spaced }: { title: ReactNode; children?: ReactNode; spaced?: boolean }) {
  const { token } = theme.useToken();
  return (
    <Flex
      justify="space-between"
      align="center"
      wrap
      gap={token.margin}
      style={spaced ? { marginBottom: token.margin } : undefined}
    >
      <h2 style={{ margin: 0, fontSize: token.fontSizeHeading4 }}>{title}</h2>
      {children && (
        <Flex align="center" wrap gap={token.margin}>
          {children}
        </Flex>
      )}
    </Flex>
  );
}

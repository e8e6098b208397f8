import { SettingOutlined } from '@ant-design/icons';
import type { ResourceDef } from '@lampyr/contract';
import { Button, Checkbox, Flex, Popover, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResourceLabels } from './labels.ts';

/** Every column a person may show: the readable fields and the system ones. */
export function choosableColumns(resource: ResourceDef): string[] {
  const own = Object.entries(resource.fields)
    .filter(([, def]) => def.kind !== 'secret')
    .map(([name]) => name);
  return ['id', ...own, 'createdAt', 'updatedAt'];
}

export function defaultColumns(resource: ResourceDef): string[] {
  return Object.entries(resource.fields)
    .filter(([, def]) => def.list && def.kind !== 'secret')
    .map(([name]) => name);
}

/** Picks the columns, sent to the list call as `selectedColumns`. */
export function ColumnChooser({
  resource,
  labels,
  visible,
  onChange,
}: {
  resource: ResourceDef;
  labels: ResourceLabels;
  visible: string[];
  onChange: (columns: Record<string, boolean> | null) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<string[]>(visible);
  const content = (
    <Flex vertical gap={8} style={{ maxHeight: 360, overflow: 'auto' }}>
      <Checkbox.Group
        value={chosen}
        onChange={(v) => setChosen(v)}
        options={choosableColumns(resource).map((name) => ({ value: name, label: labels.field(name) }))}
        style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
      />
      <Space>
        <Button
          type="primary"
          size="small"
          disabled={chosen.length === 0}
          onClick={() => {
            onChange(Object.fromEntries(chosen.map((c) => [c, true])));
            setOpen(false);
          }}
        >
          {t('filter.apply')}
        </Button>
        <Button
          size="small"
          onClick={() => {
            onChange(null);
            setChosen(defaultColumns(resource));
            setOpen(false);
          }}
        >
          {t('resource.defaultColumns')}
        </Button>
      </Space>
    </Flex>
  );
  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setChosen(visible);
      }}
      content={content}
      title={t('resource.columns')}
      placement="bottomRight"
    >
      <Button icon={<SettingOutlined />}>{t('resource.columns')}</Button>
    </Popover>
  );
}

import type { FieldDef } from '@lampyr/contract';
import { ColorPicker, DatePicker, Input, InputNumber, Select, Switch, TimePicker } from 'antd';
import type { ReactElement } from 'react';
import type { ResourceLabels } from './labels.ts';
import { ReferenceSelect } from './reference-select.tsx';

/** The form widget of a field kind; Form.Item feeds it value and onChange. */
export function fieldInput(
  name: string,
  def: FieldDef,
  labels: ResourceLabels,
  autoFocus: boolean,
  narrow?: Record<string, number>,
): ReactElement {
  const common = { autoFocus };
  switch (def.kind) {
    case 'longText':
      return <Input.TextArea {...common} rows={3} maxLength={def.maxLength} showCount />;
    case 'json':
      return <Input.TextArea {...common} rows={4} spellCheck={false} style={{ fontFamily: 'monospace' }} />;
    case 'email':
      return <Input {...common} type="email" maxLength={def.maxLength} autoComplete="off" />;
    case 'phone':
      return <Input {...common} type="tel" maxLength={def.maxLength} />;
    case 'url':
    case 'image':
      return <Input {...common} type="url" maxLength={def.maxLength} />;
    case 'secret':
      return <Input.Password {...common} autoComplete="new-password" maxLength={def.maxLength} />;
    case 'integer':
    case 'number':
      return (
        // No min/max here: a silently clamped number would hide the catalogue's message.
        <InputNumber {...common} precision={def.kind === 'integer' ? 0 : undefined} style={{ width: '100%' }} />
      );
    case 'boolean':
      return <Switch {...common} />;
    case 'enum':
      return (
        <Select
          {...common}
          allowClear
          options={(def.options ?? []).map((value) => ({ value, label: labels.option(name, value) }))}
        />
      );
    case 'reference':
      return <ReferenceSelect {...common} prefix={def.ref ?? ''} narrow={narrow} />;
    case 'date':
      return <DatePicker {...common} style={{ width: '100%' }} />;
    case 'datetime':
      return <DatePicker {...common} showTime style={{ width: '100%' }} />;
    case 'time':
      return <TimePicker {...common} format="HH:mm" style={{ width: '100%' }} />;
    case 'color':
      return <ColorPicker {...common} showText format="hex" disabledAlpha />;
    default:
      return <Input {...common} maxLength={def.maxLength} />;
  }
}

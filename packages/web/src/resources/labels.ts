import type { ResourceDef } from '@lampyr/contract';
import { useTranslation } from 'react-i18next';

/**
 * Labels of a resource: its own override of a field's name first, then the shared one. An enum
 * option is looked up for the resource's field, then for the field anywhere, then by its value
 * alone; options that are codes (LoRaWAN regions, data types) have no entry and show as they are.
 */
export function useResourceLabels(resource: ResourceDef) {
  const { t } = useTranslation();
  return {
    title: t(`resources:${resource.name}.title`),
    one: t(`resources:${resource.name}.one`),
    field: (name: string): string =>
      t([`resources:${resource.name}.fields.${name}`, `resources:fields.${name}`], { defaultValue: name }),
    option: (field: string, value: string): string =>
      t(
        [
          `resources:${resource.name}.options.${field}.${value}`,
          `resources:options.${field}.${value}`,
          `resources:values.${value}`,
        ],
        { defaultValue: value },
      ),
  };
}

export type ResourceLabels = ReturnType<typeof useResourceLabels>;

import {
  type Channel,
  DEMO_APPLICATION_ID,
  devEuiOf,
  GATEWAY_EUIS,
  ipUidOf,
  LAYOUTS,
  lostLightEuis,
  SCALE,
} from '@lampyr/simulator/demo-fleet';
import type { Db } from '../db/connect.ts';
import {
  alertParameterGroups,
  deviceChannelTemplates,
  deviceConnectionStatus,
  deviceModels,
  deviceNodeLossSettings,
  devices,
  deviceTopology,
  deviceTypes,
  gatewayApplications,
  gatewayDeviceProfiles,
  gateways,
  multicastGroups,
  taskGroupProfiles,
  taskGroups,
  taskProfiles,
  taskProfileTimings,
  taskTypes,
} from '../db/schema/index.ts';
import { seedAlarmRules } from './alarm-demo.ts';
import type { DeviceReference } from './essential.ts';

type Tx = Pick<Db, 'insert'>;

/** Streets of Caferağa and Moda (Kadıköy), as polylines the poles are spread along. */
const STREETS: { region: 'Caferağa' | 'Moda'; name: string; path: [number, number][] }[] = [
  {
    region: 'Caferağa',
    name: 'Bahariye Caddesi',
    path: [
      [40.9905, 29.0268],
      [40.9872, 29.0297],
      [40.9846, 29.0318],
    ],
  },
  {
    region: 'Caferağa',
    name: 'Kadife Sokak',
    path: [
      [40.9878, 29.0262],
      [40.9852, 29.0275],
    ],
  },
  {
    region: 'Caferağa',
    name: 'Serasker Caddesi',
    path: [
      [40.9902, 29.0246],
      [40.9888, 29.0285],
    ],
  },
  {
    region: 'Caferağa',
    name: 'Mühürdar Caddesi',
    path: [
      [40.9896, 29.0224],
      [40.9868, 29.0238],
      [40.9849, 29.0246],
    ],
  },
  {
    region: 'Moda',
    name: 'Moda Caddesi',
    path: [
      [40.9862, 29.0262],
      [40.9826, 29.0268],
      [40.9805, 29.0262],
    ],
  },
  {
    region: 'Moda',
    name: 'Dr. Esat Işık Caddesi',
    path: [
      [40.9839, 29.0292],
      [40.9808, 29.0281],
      [40.9786, 29.0268],
    ],
  },
  {
    region: 'Moda',
    name: 'Ferit Tek Sokak',
    path: [
      [40.9818, 29.0242],
      [40.9801, 29.0235],
    ],
  },
  {
    region: 'Moda',
    name: 'Moda Sahil Yolu',
    path: [
      [40.9848, 29.0212],
      [40.9812, 29.0218],
      [40.9779, 29.0236],
    ],
  },
];

/** Evenly spaced points along a polyline. */
function along(path: [number, number][], count: number): [number, number][] {
  const segments = path.slice(1).map((to, i) => [path[i] as [number, number], to] as const);
  const lengths = segments.map(([a, b]) => Math.hypot(b[0] - a[0], b[1] - a[1]));
  const total = lengths.reduce((s, l) => s + l, 0);
  return Array.from({ length: count }, (_, k) => {
    let d = (total * (k + 0.5)) / count;
    for (const [i, [a, b]] of segments.entries()) {
      const l = lengths[i] as number;
      if (d <= l || i === segments.length - 1) {
        const f = l ? Math.min(1, d / l) : 0;
        return [Number((a[0] + (b[0] - a[0]) * f).toFixed(6)), Number((a[1] + (b[1] - a[1]) * f).toFixed(6))];
      }
      d -= l;
    }
    return path[0] as [number, number];
  });
}

const one = async <T>(rows: Promise<T[]>): Promise<T> => (await rows)[0] as T;

export interface StreetLightingSeed {
  lights: number;
  ipDevices: number;
}

type Place = { accountId: number; regionIds: { Caferağa: number; Moda: number }; reference: DeviceReference };
type Id = { id: number };

/**
 * The demo's street lighting, step by step: the device catalogue, 200 street lights of Kadıköy
 * and five IP controllers, their gateways, their alarm rules and a dusk-to-dawn schedule.
 */
export async function seedStreetLighting(tx: Tx, place: Place): Promise<StreetLightingSeed> {
  const models = await seedDeviceCatalogue(tx, place.reference);
  const { inserted, ipDevices } = await seedLights(tx, place, models);
  await seedGateways(tx, place.accountId, place.reference.star, inserted);
  await seedAlerts(tx, place.accountId, models, inserted, ipDevices);
  await seedSchedule(tx, place.accountId, models);
  return { lights: inserted.length, ipDevices: ipDevices.length };
}

interface Models {
  l1: Id;
  l2: Id;
  ip1: Id;
  /** The SLC-L2 model's channel templates by code. */
  l2Channels: Map<string, number>;
}

/** Device types, the three controller models and a gateway model, and their channel templates. */
async function seedDeviceCatalogue(tx: Tx, reference: DeviceReference): Promise<Models> {
  const { star, feed, lorawan, ip } = reference;
  const valueTypeNames = ['State', 'Percentage', 'Power', 'Voltage', 'Current', 'Energy', 'Illuminance', 'Temperature'];
  const valueType = (code: string) =>
    reference.valueTypes.get(
      valueTypeNames[['lamp', 'dim', 'power', 'voltage', 'current', 'energy', 'lux', 'temperature'].indexOf(code)] ??
        '',
    );

  const [slcLora, slcIp, gatewayType] = await tx
    .insert(deviceTypes)
    .values([
      {
        typeNameEn: 'Street light controller (LoRaWAN)',
        typeNameTr: 'Sokak lambası kontrolcüsü (LoRaWAN)',
        typeNameEs: 'Controlador de alumbrado (LoRaWAN)',
        typeNameAr: 'وحدة تحكم إنارة الشوارع (LoRaWAN)',
        typeNameFr: "Contrôleur d'éclairage (LoRaWAN)",
        iotType: 'IOT',
        deviceTopologyTypeId: star,
      },
      {
        typeNameEn: 'Street light controller (IP)',
        typeNameTr: 'Sokak lambası kontrolcüsü (IP)',
        typeNameEs: 'Controlador de alumbrado (IP)',
        typeNameAr: 'وحدة تحكم إنارة الشوارع (IP)',
        typeNameFr: "Contrôleur d'éclairage (IP)",
        iotType: 'IOT',
        deviceTopologyTypeId: feed,
      },
      {
        typeNameEn: 'LoRaWAN gateway',
        typeNameTr: 'LoRaWAN ağ geçidi',
        typeNameEs: 'Pasarela LoRaWAN',
        typeNameAr: 'بوابة LoRaWAN',
        typeNameFr: 'Passerelle LoRaWAN',
        iotType: 'IOT',
        deviceTopologyTypeId: star,
      },
    ])
    .returning({ id: deviceTypes.id });
  const model = (modelName: string, deviceTypeId: number, deviceTypeProtocolId: number, classType: string | null) =>
    one(
      tx
        .insert(deviceModels)
        .values({
          modelName,
          deviceTypeId,
          deviceTypeProtocolId,
          classType,
          supportTask: true,
          parameterGroupCode: 'SLC',
          // The 120 W LED luminaire of the demo's streets (the simulator's, at full level).
          ratedPower: deviceTypeId === gatewayType?.id ? null : 120,
        })
        .returning({ id: deviceModels.id }),
    );
  const l1 = await model('SLC-L1 LoRaWAN controller', slcLora?.id as number, lorawan, 'C');
  const l2 = await model('SLC-L2 LoRaWAN controller with metering', slcLora?.id as number, lorawan, 'C');
  const ip1 = await model('SLC-IP1 IP controller', slcIp?.id as number, ip, null);
  await model('GW-8 outdoor gateway', gatewayType?.id as number, lorawan, null);

  const templates = async (deviceTypeModelId: number, layout: Channel[]) => {
    const rows = await tx
      .insert(deviceChannelTemplates)
      .values(
        layout.map(([code, label, dataType, bytes, formula, unit, min, max, write], i) => ({
          name: label,
          deviceTypeModelId,
          channelValueTypeId: valueType(code),
          channelType: write ? 'readwrite' : 'read',
          channelOrder: i + 1,
          channelCode: code,
          unit,
          dataType,
          description: `${label} of the luminaire`,
          alertParameterCode: code.toUpperCase(),
          mqttPackageOrder: i + 1,
          dataLimitMin: min,
          dataLimitMax: max,
          dataByteLength: bytes,
          dataLabel: label,
          variables: SCALE[code] ?? 'k=1',
          formula,
        })),
      )
      .returning({ id: deviceChannelTemplates.id, code: deviceChannelTemplates.channelCode });
    return new Map(rows.map((r) => [r.code, r.id]));
  };
  await templates(l1.id, LAYOUTS.l1);
  const l2Channels = await templates(l2.id, LAYOUTS.l2);
  await templates(ip1.id, LAYOUTS.l2);
  return { l1, l2, ip1, l2Channels };
}

/** 200 LoRaWAN lights along the streets (a few lost in the field) and five IP controllers in Moda Parkı. */
async function seedLights(tx: Tx, place: Place, { l1, l2, ip1 }: Models) {
  const { accountId } = place;
  // 200 LoRaWAN lights along the streets; the fixtures' device (0001) is an SLC-L1.
  const perStreet = 25;
  const lights = STREETS.flatMap((street, s) =>
    along(street.path, perStreet).map(([latitude, longitude], k) => {
      const n = s * perStreet + k + 1;
      return {
        accountId,
        name: `KDK-${street.region === 'Moda' ? 'MODA' : 'CAFERAGA'}-${String(n).padStart(4, '0')}`,
        deviceTypeModelId: n <= 10 ? l1.id : l2.id,
        regionId: place.regionIds[street.region],
        code: `SL${String(n).padStart(4, '0')}`,
        serialNumber: `LPY-SLC-${String(100000 + n)}`,
        devEui: devEuiOf(n),
        street: street.name,
        address: `${street.name} No: ${k * 4 + 1}, ${street.region}, Kadıköy`,
        latitude,
        longitude,
        status: 'commissioned',
        isActive: true,
        applicationId: DEMO_APPLICATION_ID,
        applicationName: 'street-lighting',
        confirmed: false,
        sleepTime: 10,
        side: k % 2 ? 'odd' : 'even',
      };
    }),
  );
  const inserted = await tx.insert(devices).values(lights).returning({ id: devices.id, devEui: devices.devEui });
  const lost = new Set(lostLightEuis(lights.length));
  await tx.insert(deviceConnectionStatus).values(
    inserted
      .filter((d) => lost.has(d.devEui as string))
      .map((d, k) => ({
        accountId,
        deviceId: d.id,
        status: 'offline',
        // Heard last yesterday evening, on a weak link.
        dateTime: new Date(Date.now() - (26 + k) * 3_600_000),
        rssi: -119,
        snr: -14.5,
      })),
  );
  const ipDevices = await tx
    .insert(devices)
    .values(
      Array.from({ length: 5 }, (_, k) => ({
        accountId,
        name: `KDK-MODA-PARK-${k + 1}`,
        deviceTypeModelId: ip1.id,
        regionId: place.regionIds.Moda,
        uid: ipUidOf(k + 1),
        serialNumber: `LPY-IP-${2000 + k}`,
        street: 'Moda Parkı',
        address: 'Moda Parkı, Kadıköy',
        latitude: 40.9791 + k * 0.0004,
        longitude: 29.0251,
        status: 'commissioned',
        isActive: true,
        sleepTime: 5,
      })),
    )
    .returning({ id: devices.id });
  return { inserted, ipDevices };
}

/** Three gateways, the ChirpStack application, device profile and multicast group, and a relay chain. */
async function seedGateways(tx: Tx, accountId: number, star: number, inserted: { id: number }[]) {
  const [gw1, gw2, gw3] = await tx
    .insert(gateways)
    .values([
      {
        accountId,
        name: 'GW Kadıköy Çarşı',
        devEui: GATEWAY_EUIS[0],
        gatewayCode: 'GW-001',
        statsInterval: 30,
        latitude: 40.9881,
        longitude: 29.0266,
        status: 'online',
      },
      {
        accountId,
        name: 'GW Moda Burnu',
        devEui: GATEWAY_EUIS[1],
        gatewayCode: 'GW-002',
        statsInterval: 30,
        latitude: 40.9794,
        longitude: 29.0249,
        status: 'online',
      },
      {
        accountId,
        name: 'GW Bahariye',
        devEui: GATEWAY_EUIS[2],
        gatewayCode: 'GW-003',
        statsInterval: 30,
        latitude: 40.9858,
        longitude: 29.0309,
        status: 'online',
      },
    ])
    .returning({ id: gateways.id });
  const application = await one(
    tx
      .insert(gatewayApplications)
      .values({
        accountId,
        name: 'street-lighting',
        description: 'Kadıköy street lights',
        chirpstackApplicationId: DEMO_APPLICATION_ID,
      })
      .returning({ id: gatewayApplications.id }),
  );
  await tx.insert(gatewayDeviceProfiles).values({
    accountId,
    name: 'SLC-LoRa-EU868-ClassC',
    region: 'EU868',
    macVersion: 'LORAWAN_1_0_3',
    regParamsRevision: 'RP002_1_0_1',
    supportsOtaa: true,
    supportsClassB: false,
    supportsClassC: true,
    adrAlgorithmId: 'default',
  });
  await tx.insert(multicastGroups).values({
    accountId,
    name: 'All Kadıköy lights',
    applicationId: application.id,
    multicastAddress: '01ab23cd',
    dataRate: 3,
    frequency: 869525000,
    groupType: 'CLASS_C',
    classCSchedulingType: 'DELAY',
  });
  // Every light hangs off the gateway nearest to its street.
  const gatewayIds = [gw1?.id, gw2?.id, gw3?.id] as number[];
  await tx.insert(deviceTopology).values(
    inserted.slice(0, 3).map((d, i) => ({
      accountId,
      topologyId: star,
      parentDeviceId: inserted[3 + i]?.id as number,
      childDeviceId: d.id,
      description: `Relay through ${gatewayIds[i] ? `gateway ${i + 1}` : 'gateway'}`,
    })),
  );
}

/** The lights' health rules (alarm-demo.ts) and node-loss watch on the first twenty. */
async function seedAlerts(tx: Tx, accountId: number, { l2, l2Channels }: Models, inserted: Id[], ipDevices: Id[]) {
  const group = await one(
    tx
      .insert(alertParameterGroups)
      .values({
        accountId,
        name: 'Street light health',
        deviceTypeModelId: l2.id,
        parameterGroupCode: 'SLC',
        enable: true,
      })
      .returning({ id: alertParameterGroups.id }),
  );
  await seedAlarmRules(tx, {
    accountId,
    groupId: group.id,
    channels: l2Channels,
    meteringDeviceIds: ipDevices.map((d) => d.id),
    powerOnlyDeviceIds: inserted.slice(0, 10).map((d) => d.id),
  });
  await tx.insert(deviceNodeLossSettings).values(
    inserted.slice(0, 20).map((d) => ({
      accountId,
      deviceId: d.id,
      alertLevel: 'medium',
      heartbeatThreshold: 30,
      heartbeatCycle: 10,
      isActive: true,
      isForever: true,
    })),
  );
}

/** The dusk-to-dawn schedule with 50 % after midnight, for the SLC-L2 lights, published. */
async function seedSchedule(tx: Tx, accountId: number, { l2, l2Channels }: Models) {
  const taskType = await one(
    tx.insert(taskTypes).values({ accountId, name: 'Lighting schedule' }).returning({ id: taskTypes.id }),
  );
  const profile = await one(
    tx
      .insert(taskProfiles)
      .values({
        accountId,
        name: 'Dusk to dawn, 50% after midnight',
        taskTypeId: taskType.id,
        operation: 'dimming',
        dimLevel: 50,
        color: '#2e9e4f',
        cyclicType: 'everyday',
        priority: 5,
        offDays: [],
        individualOrBatch: 'batch',
        deviceTypeModelId: l2.id,
      })
      .returning({ id: taskProfiles.id }),
  );
  await tx.insert(taskProfileTimings).values({
    accountId,
    taskProfileId: profile.id,
    deviceTypeModelId: l2.id,
    channelTemplateId: l2Channels.get('dim'),
    on1Type: 'sunset',
    on1Value: 100,
    on2Type: 'custom',
    on2Time: '00:00',
    on2Value: 50,
    off1Type: 'sunrise',
    off1Value: 0,
  });
  const taskGroup = await one(
    tx
      .insert(taskGroups)
      .values({
        accountId,
        name: 'Caferağa and Moda lights',
        isMulticast: true,
        deviceTypeModelId: l2.id,
        status: 'active',
        publicationStatus: 'published',
        color: '#2e9e4f',
      })
      .returning({ id: taskGroups.id }),
  );
  await tx.insert(taskGroupProfiles).values([
    {
      accountId,
      taskGroupId: taskGroup.id,
      taskProfileId: profile.id,
      mode: 'sun',
      method: 'sunset',
      operation: 'on',
      hour: 0,
      minute: 0,
      startDay: 1,
      endDay: 31,
      priority: 5,
      color: '#2e9e4f',
      unlimited: true,
    },
    {
      accountId,
      taskGroupId: taskGroup.id,
      taskProfileId: profile.id,
      mode: 'time',
      method: 'fixed',
      operation: 'dimming',
      hour: 0,
      minute: 0,
      startDay: 1,
      endDay: 31,
      priority: 5,
      color: '#2e9e4f',
      unlimited: true,
    },
    {
      accountId,
      taskGroupId: taskGroup.id,
      taskProfileId: profile.id,
      mode: 'sun',
      method: 'sunrise',
      operation: 'off',
      hour: 0,
      minute: 0,
      startDay: 1,
      endDay: 31,
      priority: 5,
      color: '#2e9e4f',
      unlimited: true,
    },
  ]);
}

import {
  AlertOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  CalendarOutlined,
  ClusterOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  SettingOutlined,
  ToolOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

export const GROUP_ICONS: Record<string, ReactNode> = {
  dashboards: <DashboardOutlined />,
  gatewaymanagement: <WifiOutlined />,
  'assets-devices': <AppstoreOutlined />,
  'alerts-alarms': <AlertOutlined />,
  'tasks-schedules': <CalendarOutlined />,
  'reports-analytics': <BarChartOutlined />,
  'maintenance-fault': <ToolOutlined />,
  system: <SettingOutlined />,
  logs: <FileSearchOutlined />,
  'device-channels': <ClusterOutlined />,
  topology: <ApartmentOutlined />,
};

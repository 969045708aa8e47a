import type { TDeviceType } from '@portal/contract';
import { Icon, type IconProps } from '@/components/ui/icons';

const PhoneIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="7" y="3" width="10" height="18" rx="2" />
    <path d="M11 17.5h2" />
  </Icon>
);

const TabletIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="4.5" y="3" width="15" height="18" rx="2" />
    <path d="M11 17.5h2" />
  </Icon>
);

const ComputerIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="4.5" width="17" height="11" rx="1.5" />
    <path d="M8.5 19.5h7M12 15.5v4" />
  </Icon>
);

/** The kind of device, drawn (an unknown kind is drawn as a computer). */
export function DeviceIcon({ type, ...props }: IconProps & { type: TDeviceType }) {
  if (type === 'mobile') return <PhoneIcon {...props} />;
  if (type === 'tablet') return <TabletIcon {...props} />;
  return <ComputerIcon {...props} />;
}

/** A passkey. */
export const KeyIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="8" cy="15" r="4" />
    <path d="M11 12l8-8M16 7l2.5 2.5M14 9l2 2" />
  </Icon>
);

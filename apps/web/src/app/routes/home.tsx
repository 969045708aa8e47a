import { HomeScreen } from '@/features/home/components/home-screen';

/** Spec §2 "Home". */
export function Component() {
  return <HomeScreen />;
}

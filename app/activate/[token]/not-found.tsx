import { InvalidActivation } from "@/components/org/activation-page";

export default function NotFound() {
  return <InvalidActivation />;
}

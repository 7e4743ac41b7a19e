import { routeMethods } from "@/lib/http/api-route";
import { accountActionRoute } from "@/lib/account-page/account-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: accountActionRoute("sign_out") });

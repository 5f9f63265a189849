import type { NextConfig } from "next"

const config: NextConfig = {
  cacheComponents: true,
  partialPrefetching: true
}

export default config

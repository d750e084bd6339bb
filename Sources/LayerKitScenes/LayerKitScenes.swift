// LayerKitScenes: scenes shared by samples, benchmarks, tools and tests. Not a product.
import LayerKit

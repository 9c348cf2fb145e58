// Real-looking Minecraft crash traces (Fabric and Forge style, mixin handlers, lambdas, anonymous
// classes, different line numbers across mod versions) with the problem each one is. Traces of
// one `problem` must group together; traces of different problems must not.
export type CorpusTrace = { id: string; problem: string; modVersion: string; title: string; stackTrace?: string };

export const traceCorpus: CorpusTrace[] = [
  {
    id: "A1 fabric 1.2.0",
    problem: "A: NPE in DungeonSplits.onChat",
    modVersion: "1.2.0",
    title: "Crash while reading dungeon chat",
    stackTrace: `java.lang.NullPointerException: Cannot invoke "dev.tally.mod.feature.Split.finish()" because "this.current" is null
	at dev.tally.mod.feature.DungeonSplits.onChat(DungeonSplits.java:88)
	at dev.tally.mod.feature.DungeonSplits.lambda$register$2(DungeonSplits.java:41)
	at dev.tally.mod.event.ChatEvents.lambda$static$0(ChatEvents.java:19)
	at net.fabricmc.fabric.api.event.EventFactory.lambda$createArrayBacked$0(EventFactory.java:57)
	at net.minecraft.client.gui.hud.ChatHud.handler$zza000$tally$onAddMessage(ChatHud.java:1043)
	at net.minecraft.client.gui.hud.ChatHud.addMessage(ChatHud.java:158)
	at net.minecraft.client.network.ClientPlayNetworkHandler.onGameMessage(ClientPlayNetworkHandler.java:1201)
	at net.minecraft.network.packet.s2c.play.GameMessageS2CPacket.apply(GameMessageS2CPacket.java:40)
	at net.minecraft.network.NetworkThreadUtils.method_11072(NetworkThreadUtils.java:27)
	at net.minecraft.util.thread.ThreadExecutor.runTask(ThreadExecutor.java:162)
	at net.minecraft.client.MinecraftClient.run(MinecraftClient.java:881)
	at net.minecraft.client.main.Main.main(Main.java:265)
	at net.fabricmc.loader.impl.game.minecraft.MinecraftGameProvider.launch(MinecraftGameProvider.java:480)
	at net.fabricmc.loader.impl.launch.knot.Knot.launch(Knot.java:74)
	at net.fabricmc.loader.impl.launch.knot.KnotClient.main(KnotClient.java:23)`,
  },
  {
    id: "A2 fabric 1.3.1",
    problem: "A: NPE in DungeonSplits.onChat",
    modVersion: "1.3.1",
    title: "Crash while reading dungeon chat",
    stackTrace: `java.lang.NullPointerException: Cannot invoke "dev.tally.mod.feature.Split.finish()" because "this.current" is null
	at knot//dev.tally.mod.feature.DungeonSplits.onChat(DungeonSplits.java:97)
	at knot//dev.tally.mod.feature.DungeonSplits.lambda$register$5(DungeonSplits.java:44)
	at knot//dev.tally.mod.event.ChatEvents.lambda$static$1(ChatEvents.java:22)
	at knot//net.fabricmc.fabric.api.event.EventFactory.lambda$createArrayBacked$0(EventFactory.java:57)
	at knot//net.minecraft.client.gui.hud.ChatHud.handler$bkc001$tally$onAddMessage(ChatHud.java:1187)
	at knot//net.minecraft.client.gui.hud.ChatHud.addMessage(ChatHud.java:158)
	at knot//net.minecraft.client.network.ClientPlayNetworkHandler.onGameMessage(ClientPlayNetworkHandler.java:1201)
	at knot//net.minecraft.client.MinecraftClient.run(MinecraftClient.java:881)
	at knot//net.fabricmc.loader.impl.launch.knot.KnotClient.main(KnotClient.java:23)`,
  },
  {
    id: "A3 forge crash report 1.2.4",
    problem: "A: NPE in DungeonSplits.onChat",
    modVersion: "1.2.4",
    title: "Game crashed: Unexpected error",
    stackTrace: `net.minecraft.ReportedException: Unexpected error
	at net.minecraft.client.Minecraft.m_91374_(Minecraft.java:2583) ~[client-1.20.1-20230612.114412-srg.jar%23280!/:?] {re:mixin,pl:accesstransformer:B,re:classloading}
	at net.minecraft.client.main.Main.main(Main.java:218) ~[forge-47.2.0.jar:?] {re:classloading}
Caused by: java.lang.NullPointerException: Cannot invoke "dev.tally.mod.feature.Split.finish()" because "this.current" is null
	at dev.tally.mod.feature.DungeonSplits.onChat(DungeonSplits.java:90) ~[tally-1.2.4.jar%23189!/:1.2.4] {re:classloading}
	at dev.tally.mod.feature.DungeonSplits.lambda$register$3(DungeonSplits.java:42) ~[tally-1.2.4.jar%23189!/:1.2.4] {re:classloading}
	at dev.tally.mod.event.ChatEvents.lambda$static$0(ChatEvents.java:20) ~[tally-1.2.4.jar%23189!/:1.2.4] {re:classloading}
	at net.minecraftforge.eventbus.EventBus.post(EventBus.java:315) ~[eventbus-6.0.5.jar%2387!/:?] {}
	at net.minecraft.client.gui.components.ChatComponent.handler$zzd000$onAddMessage(ChatComponent.java:612) ~[client-1.20.1-20230612.114412-srg.jar%23280!/:?] {re:mixin}
	... 12 more`,
  },
  {
    id: "B1 index out of bounds in parseSplit",
    problem: "B: IOOBE in DungeonSplits.parseSplit",
    modVersion: "1.2.0",
    title: "Crash while reading dungeon chat",
    stackTrace: `java.lang.IndexOutOfBoundsException: Index 3 out of bounds for length 3
	at java.base/jdk.internal.util.Preconditions.outOfBounds(Preconditions.java:100)
	at java.base/java.util.Objects.checkIndex(Objects.java:385)
	at java.base/java.util.ArrayList.get(ArrayList.java:427)
	at dev.tally.mod.feature.DungeonSplits.parseSplit(DungeonSplits.java:131)
	at dev.tally.mod.feature.DungeonSplits.onChat(DungeonSplits.java:85)
	at dev.tally.mod.feature.DungeonSplits.lambda$register$2(DungeonSplits.java:41)`,
  },
  {
    id: "B2 index out of bounds, other index",
    problem: "B: IOOBE in DungeonSplits.parseSplit",
    modVersion: "1.3.0",
    title: "Crash while reading dungeon chat",
    stackTrace: `java.lang.IndexOutOfBoundsException: Index 7 out of bounds for length 5
	at java.base/jdk.internal.util.Preconditions.outOfBounds(Preconditions.java:100)
	at java.base/java.util.ArrayList.get(ArrayList.java:427)
	at app//dev.tally.mod.feature.DungeonSplits.parseSplit(DungeonSplits.java:140)
	at app//dev.tally.mod.feature.DungeonSplits.onChat(DungeonSplits.java:94)
	at app//dev.tally.mod.feature.DungeonSplits.lambda$register$5(DungeonSplits.java:44)`,
  },
  {
    id: "C1 NPE in Outbox.flush",
    problem: "C: NPE in Outbox.flush",
    modVersion: "1.2.0",
    title: "Upload failed",
    stackTrace: `java.lang.NullPointerException: Cannot read field "batchId" because "entry" is null
	at dev.tally.mod.upload.Outbox.flush(Outbox.java:77)
	at dev.tally.mod.upload.Uploader.lambda$scheduleFlush$1(Uploader.java:52)
	at dev.tally.mod.upload.Uploader$$Lambda$2184/0x0000000801a3c4e8.run(Unknown Source)
	at java.base/java.util.concurrent.CompletableFuture$AsyncRun.run(CompletableFuture.java:1804)
	at java.base/java.lang.Thread.run(Thread.java:840)`,
  },
  {
    id: "C2 NPE in Outbox.flush, Java 21 hidden lambda",
    problem: "C: NPE in Outbox.flush",
    modVersion: "1.3.1",
    title: "Upload failed",
    stackTrace: `java.lang.NullPointerException: Cannot read field "batchId" because "entry" is null
	at dev.tally.mod.upload.Outbox.flush(Outbox.java:81)
	at dev.tally.mod.upload.Uploader.lambda$scheduleFlush$3(Uploader.java:55)
	at dev.tally.mod.upload.Uploader$$Lambda/0x000001f0014c3a48.run(Unknown Source)
	at java.base/java.util.concurrent.CompletableFuture$AsyncRun.run(CompletableFuture.java:1804)
	at java.base/java.lang.Thread.run(Thread.java:1583)`,
  },
  {
    id: "D1 CME via anonymous class and accessor",
    problem: "D: CME in LootTracker.onTick",
    modVersion: "1.1.0",
    title: "Crash on tick",
    stackTrace: `java.util.ConcurrentModificationException
	at java.base/java.util.ArrayList$Itr.checkForComodification(ArrayList.java:1013)
	at java.base/java.util.ArrayList$Itr.next(ArrayList.java:967)
	at dev.tally.mod.tracker.LootTracker.access$000(LootTracker.java:30)
	at dev.tally.mod.tracker.LootTracker$1.run(LootTracker.java:58)
	at dev.tally.mod.tracker.LootTracker.onTick(LootTracker.java:49)
	at net.minecraft.client.MinecraftClient.handler$zza000$tally$onEndTick(MinecraftClient.java:3301)
	at net.minecraft.client.MinecraftClient.tick(MinecraftClient.java:1901)`,
  },
  {
    id: "D2 CME, renumbered anonymous class and accessor",
    problem: "D: CME in LootTracker.onTick",
    modVersion: "1.2.0",
    title: "Crash on tick",
    stackTrace: `java.util.ConcurrentModificationException
	at java.base/java.util.ArrayList$Itr.checkForComodification(ArrayList.java:1013)
	at java.base/java.util.ArrayList$Itr.next(ArrayList.java:967)
	at dev.tally.mod.tracker.LootTracker.access$100(LootTracker.java:31)
	at dev.tally.mod.tracker.LootTracker$2.run(LootTracker.java:66)
	at dev.tally.mod.tracker.LootTracker.onTick(LootTracker.java:52)
	at net.minecraft.client.MinecraftClient.handler$zzc000$tally$onEndTick(MinecraftClient.java:3420)
	at net.minecraft.client.MinecraftClient.tick(MinecraftClient.java:1901)`,
  },
  {
    id: "E1 no in-app frame, texture 1234",
    problem: "E: texture not bound (game code only)",
    modVersion: "1.2.0",
    title: "Render crash",
    stackTrace: `java.lang.IllegalStateException: Texture 1234 is not bound at 0x7f3a2c10
	at com.mojang.blaze3d.systems.RenderSystem.assertOnRenderThread(RenderSystem.java:112)
	at net.minecraft.client.texture.AbstractTexture.bindTexture(AbstractTexture.java:45)
	at net.minecraft.client.render.GameRenderer.render(GameRenderer.java:1012)`,
  },
  {
    id: "E2 no in-app frame, texture 98",
    problem: "E: texture not bound (game code only)",
    modVersion: "1.3.0",
    title: "Render crash",
    stackTrace: `java.lang.IllegalStateException: Texture 98 is not bound at 0x55d0e3f0
	at com.mojang.blaze3d.systems.RenderSystem.assertOnRenderThread(RenderSystem.java:118)
	at net.minecraft.client.texture.AbstractTexture.bindTexture(AbstractTexture.java:47)`,
  },
  {
    id: "F1 no in-app frame, other message",
    problem: "F: render system not initialised (game code only)",
    modVersion: "1.2.0",
    title: "Render crash",
    stackTrace: `java.lang.IllegalStateException: Rendersystem called from wrong thread
	at com.mojang.blaze3d.systems.RenderSystem.assertOnRenderThread(RenderSystem.java:112)
	at net.minecraft.client.texture.AbstractTexture.bindTexture(AbstractTexture.java:45)`,
  },
  {
    id: "G1 no trace: sign-in 503 after 3 tries",
    problem: "G: sign-in failed (title only)",
    modVersion: "1.2.0",
    title: "Sign-in failed: HTTP 503 after 3 attempts",
  },
  {
    id: "G2 no trace: sign-in 502 after 5 tries",
    problem: "G: sign-in failed (title only)",
    modVersion: "1.3.0",
    title: "Sign-in failed: HTTP 502 after 5 attempts",
  },
  {
    id: "H1 no trace: other title",
    problem: "H: profile lookup empty (title only)",
    modVersion: "1.3.0",
    title: "Profile lookup shows nothing for C:\\Users\\steve\\profile 7",
  },
];

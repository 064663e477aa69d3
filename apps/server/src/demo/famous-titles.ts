/**
 * Famous titles per console (by slug) with a plausible loose price in US dollars, written
 * "Title price; Title price; ..." so a few hundred of them stay readable. They head the popularity
 * curve and give the demo real names to search for.
 */
export const FAMOUS_TITLES: Readonly<Record<string, string>> = {
  nes: `Super Mario Bros. 3 25; The Legend of Zelda 45; Metroid 30; Mega Man 2 35; Castlevania 30; Contra 35;
    Mike Tyson's Punch-Out!! 40; Kirby's Adventure 25; DuckTales 40; Ninja Gaiden 25; Final Fantasy 30; Dragon Warrior 25;
    Tetris 10; Excitebike 12; Battletoads 30; Little Samson 1800; Super Mario Bros. 15; Zelda II: The Adventure of Link 25;
    Bubble Bobble 30; River City Ransom 45; Crystalis 35; Kid Icarus 40; StarTropics 18`,
  snes: `Chrono Trigger 150; Super Metroid 70; The Legend of Zelda: A Link to the Past 45; Super Mario World 30; EarthBound 250;
    Final Fantasy III 80; Super Mario RPG 60; Donkey Kong Country 30; Donkey Kong Country 2 35; Street Fighter II Turbo 20;
    Mega Man X 60; Secret of Mana 50; F-Zero 15; Star Fox 12; Super Castlevania IV 45; Kirby Super Star 45;
    Super Mario World 2: Yoshi's Island 50; Contra III: The Alien Wars 55; Harvest Moon 90; Breath of Fire II 80;
    Illusion of Gaia 40; Super Punch-Out!! 40; ActRaiser 35`,
  n64: `Super Mario 64 30; The Legend of Zelda: Ocarina of Time 40; GoldenEye 007 25; Mario Kart 64 40; Super Smash Bros. 50;
    Banjo-Kazooie 40; Paper Mario 70; Pokemon Snap 25; Star Fox 64 25; Conker's Bad Fur Day 120;
    The Legend of Zelda: Majora's Mask 50; Perfect Dark 25; Mario Party 2 60; Donkey Kong 64 35; F-Zero X 40;
    Diddy Kong Racing 20; Pokemon Stadium 30; Ogre Battle 64 90; Harvest Moon 64 130; Wave Race 64 12`,
  gamecube: `Super Smash Bros. Melee 45; The Legend of Zelda: The Wind Waker 45; Metroid Prime 20;
    Paper Mario: The Thousand-Year Door 90; Pikmin 25; Animal Crossing 35; Mario Kart: Double Dash!! 50; Luigi's Mansion 45;
    Resident Evil 4 20; Super Mario Sunshine 30; Fire Emblem: Path of Radiance 120; Pokemon XD: Gale of Darkness 60;
    Pokemon Colosseum 60; F-Zero GX 50; Kirby Air Ride 65; Eternal Darkness: Sanity's Requiem 40;
    Skies of Arcadia Legends 70; Tales of Symphonia 40; Baten Kaitos 50; Metroid Prime 2: Echoes 20`,
  gameboy: `Tetris 8; Pokemon Red 45; Pokemon Blue 45; Pokemon Yellow 40; The Legend of Zelda: Link's Awakening 25;
    Super Mario Land 10; Super Mario Land 2: 6 Golden Coins 20; Kirby's Dream Land 12; Metroid II: Return of Samus 20;
    Wario Land: Super Mario Land 3 15; Mega Man V 60; Donkey Kong 20; Final Fantasy Adventure 35`,
  gbc: `Pokemon Crystal 80; Pokemon Gold 40; Pokemon Silver 40; The Legend of Zelda: Oracle of Ages 40;
    The Legend of Zelda: Oracle of Seasons 40; The Legend of Zelda: Link's Awakening DX 30; Pokemon Pinball 20;
    Pokemon Trading Card Game 30; Dragon Warrior Monsters 25; Shantae 400; Wario Land 3 35; Super Mario Bros. Deluxe 25`,
  gba: `Pokemon Emerald 80; Pokemon FireRed 60; Pokemon LeafGreen 55; Pokemon Ruby 35; Pokemon Sapphire 35; Metroid Fusion 25;
    Metroid: Zero Mission 30; The Legend of Zelda: The Minish Cap 45; Advance Wars 20; Fire Emblem 45; Golden Sun 20;
    Mario & Luigi: Superstar Saga 30; Castlevania: Aria of Sorrow 40; Final Fantasy Tactics Advance 20; Wario Land 4 25;
    Kirby & the Amazing Mirror 30`,
  nds: `Pokemon HeartGold 130; Pokemon SoulSilver 130; Pokemon Platinum 60; Pokemon Black Version 2 90; Pokemon White Version 2 90;
    New Super Mario Bros. 18; Mario Kart DS 20; The World Ends with You 30; Chrono Trigger 35;
    Castlevania: Order of Ecclesia 60; Phoenix Wright: Ace Attorney 40; Professor Layton and the Curious Village 15;
    Dragon Quest IX: Sentinels of the Starry Skies 20; Animal Crossing: Wild World 15; Kirby Super Star Ultra 30`,
  "virtual-boy": `Virtual Boy Wario Land 80; Mario's Tennis 20; Red Alarm 35; Teleroboxer 30; Galactic Pinball 15; Golf 20;
    Jack Bros. 300; Mario Clash 45; Vertical Force 90; Panic Bomber 40; Nester's Funky Bowling 90; Waterworld 100; 3D Tetris 120`,
  "master-system": `Alex Kidd in Miracle World 15; Phantasy Star 150; Wonder Boy III: The Dragon's Trap 70; Sonic the Hedgehog 25;
    Shinobi 25; Ys: The Vanished Omens 40; Golvellius: Valley of Doom 40; R-Type 35; Psycho Fox 30; Power Strike 100`,
  genesis: `Sonic the Hedgehog 2 10; Sonic the Hedgehog 10; Sonic & Knuckles 20; Sonic the Hedgehog 3 40; Streets of Rage 2 40;
    Gunstar Heroes 60; Phantasy Star IV 90; Shining Force II 90; Castlevania: Bloodlines 100; Contra: Hard Corps 80;
    Earthworm Jim 15; Comix Zone 40; Ristar 50; ToeJam & Earl 20; Mortal Kombat II 15; Aladdin 8; Vectorman 10;
    Shinobi III: Return of the Ninja Master 30; Rocket Knight Adventures 40; Landstalker 40`,
  "sega-cd": `Sonic CD 45; Lunar: The Silver Star 70; Lunar: Eternal Blue 80; Snatcher 400; Popful Mail 150; Night Trap 25;
    Shining Force CD 70; Robo Aleste 120; Keio Flying Squadron 200`,
  saturn: `Panzer Dragoon Saga 700; Nights into Dreams 15; Guardian Heroes 70; Shining Force III 70; Burning Rangers 120;
    Dragon Force 90; Magic Knight Rayearth 200; Sega Rally Championship 12; Virtua Fighter 2 8; Panzer Dragoon II Zwei 40;
    Albert Odyssey: Legend of Eldean 80; Saturn Bomberman 80; Mega Man 8 70`,
  dreamcast: `Shenmue 25; Jet Grind Radio 30; Sonic Adventure 20; Sonic Adventure 2 35; Skies of Arcadia 50; Soulcalibur 15;
    Crazy Taxi 10; Power Stone 2 60; Marvel vs. Capcom 2 80; Grandia II 30; Phantasy Star Online 15; Space Channel 5 20;
    Resident Evil Code: Veronica 20; ChuChu Rocket! 20`,
  "game-gear": `Sonic the Hedgehog: Triple Trouble 20; Shinobi 15; Defenders of Oasis 25; Columns 5; Ecco the Dolphin 10;
    Shining Force: The Sword of Hajya 30; The Lucky Dime Caper 15; Power Strike II 60; Shinobi II: The Silent Fury 30`,
  ps1: `Final Fantasy VII 30; Castlevania: Symphony of the Night 70; Metal Gear Solid 20; Chrono Cross 40;
    Final Fantasy Tactics 35; Suikoden II 150; Crash Bandicoot 15; Spyro the Dragon 15; Resident Evil 2 40; Silent Hill 110;
    Tony Hawk's Pro Skater 2 10; Gran Turismo 2 15; Xenogears 80; The Legend of Dragoon 40; Valkyrie Profile 120;
    Final Fantasy IX 25; Tomba! 120; Mega Man Legends 2 150; Brave Fencer Musashi 40; Tekken 3 15`,
  ps2: `Kingdom Hearts 12; Shadow of the Colossus 15; Final Fantasy X 10; Grand Theft Auto: San Andreas 10;
    Metal Gear Solid 3: Snake Eater 20; Silent Hill 2 90; Okami 30; Shin Megami Tensei: Persona 4 40;
    Shin Megami Tensei: Persona 3 FES 40; Ico 40; Dragon Quest VIII: Journey of the Cursed King 20; God of War 10;
    Rule of Rose 400; Haunting Ground 200; Kuon 150; Jak and Daxter: The Precursor Legacy 15; Ratchet & Clank 15;
    Sly Cooper and the Thievius Raccoonus 20; Katamari Damacy 20; Devil May Cry 3: Dante's Awakening 15`,
  psp: `Crisis Core: Final Fantasy VII 15; Monster Hunter Freedom Unite 15; God of War: Chains of Olympus 12;
    Metal Gear Solid: Peace Walker 15; Patapon 10; LocoRoco 10; Shin Megami Tensei: Persona 3 Portable 60;
    Tactics Ogre: Let Us Cling Together 40; Lumines 8; Kingdom Hearts Birth by Sleep 20; Valkyria Chronicles II 20`,
  "atari-2600": `Pac-Man 4; Pitfall! 8; Adventure 15; Space Invaders 5; Asteroids 4; Missile Command 4; River Raid 8;
    Yars' Revenge 6; E.T. the Extra-Terrestrial 8; Combat 4; Frogger 8; Keystone Kapers 10; Berzerk 6; Haunted House 12`,
  "turbografx-16": `Bonk's Adventure 30; Blazing Lazers 40; Ys Book I & II 70; Military Madness 30; Splatterhouse 70; Bomberman '93 40;
    Neutopia 50; Bonk's Revenge 50; Alien Crush 30; Devil's Crush 60; Air Zonk 80; Parasol Stars 300; Magical Chase 900;
    Ninja Spirit 50`,
  "neo-geo-aes": `Metal Slug 3000; The King of Fighters '98 400; Samurai Shodown 150; Fatal Fury Special 150;
    Garou: Mark of the Wolves 800; Last Resort 200; Magician Lord 150; Blazing Star 500; Art of Fighting 80;
    Baseball Stars Professional 60; Top Hunter: Roddy & Cathy 500; Shock Troopers 800`,
  xbox: `Halo: Combat Evolved 10; Halo 2 8; Star Wars: Knights of the Old Republic 15; Fable 8; Jet Set Radio Future 20;
    Ninja Gaiden Black 20; Panzer Dragoon Orta 40; Steel Battalion 150; Tom Clancy's Splinter Cell 8; Forza Motorsport 8;
    Project Gotham Racing 2 8; Conker: Live & Reloaded 15; Jade Empire 12; Burnout 3: Takedown 10; Crimson Skies 10`,
};
